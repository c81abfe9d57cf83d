// Which part of the sandbox answers a request: after the checks every request goes through (the
// name it was sent to, its URL, headers sent twice), the index, the admin area (admin.ts) or a
// service endpoint (endpoints.ts), with the injected fault that applies to it.
import { isLoopbackAddress } from '@pay/schema';
import { admin } from './admin.js';
import { isForwarded } from './admin-access.js';
import type { CoreContext } from './core-context.js';
import { service } from './endpoints.js';
import type { HostRequest } from './host-request.js';
import { fail, reply, view, type Reply } from './http.js';
import { index, notFound } from './index-answer.js';

const URL_PARTS = /^(https?:\/\/[^/?#\s]+)(\/[^?#\s]*)?(?:\?([^#\s]*))?(?:#\S*)?$/i;
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;
const ADMIN = '/_sandbox';
// The admin API's clock step: with a clock that moves itself, the request that moves it is not
// tracked work, or the clock would wait for the very request that is waiting for it.
const ADVANCE = `${ADMIN}/clock/advance`;
const FAVICON = '/favicon.ico';
/** The most ports the sandbox remembers being reached on. */
const MAX_PORTS = 8;

/** Whether `url` (as the core receives it) is the admin API's clock step. */
export const isClockAdvance = (url: string): boolean => URL_PARTS.exec(url)?.[2] === ADVANCE;

/** What the dispatcher found out about a request, for the log line and the request log. */
export interface Note {
  fault?: string;
  /** A request to a service endpoint (it goes into the request log). */
  service?: boolean;
}

/** Answers one request; `note` is filled in for the log line and the request log. */
export async function dispatch(core: CoreContext, incoming: HostRequest, arrivedAt: number, note: Note): Promise<Reply> {
  const { names, state, publicUrl, clock, closing, adminToken, signInCodes } = core;
  const { url, method } = incoming;
  // First of all, the name the request was sent to: nothing is done for a page that reached
  // the sandbox under a name of its own (DNS rebinding).
  const misdirected = names.hostProblem(AUTHORITY.exec(url)?.[1]);
  if (misdirected !== undefined) return fail(421, 'misdirected_request', misdirected);
  const parts = URL_PARTS.exec(url);
  if (parts === null) return fail(400, 'invalid_url', 'the request URL is not an absolute http URL');
  const [, origin, rawPath, query = null] = parts;
  const path = rawPath || '/';
  if (incoming.duplicateHeaders !== undefined && incoming.duplicateHeaders.length > 0) {
    const name = incoming.duplicateHeaders[0]!;
    return fail(400, 'duplicate_header', `header ${name} was sent more than once; send it once`);
  }
  if (state.ports.size < MAX_PORTS) state.ports.add(incoming.localPort ?? portOf(origin!));
  const base = publicUrl ?? origin!;
  if (path === '/') return index(incoming, base);
  // What a browser asks for by itself: no icon (the pages carry an empty one), not a service call.
  if (path === FAVICON && (method === 'GET' || method === 'HEAD')) return view(reply(204, { 'cache-control': 'max-age=86400' }, null));
  // The developer at this machine: a loopback peer that no proxy speaks for, calling the
  // sandbox by a name other than its public one. Anyone else is from outside.
  const proxied = isForwarded(incoming.headers) || names.isPublicName(AUTHORITY.exec(url)?.[1]);
  const peer = incoming.remoteAddress;
  const local = peer !== undefined && !proxied && isLoopbackAddress(peer);
  if (path === ADMIN || path.startsWith(`${ADMIN}/`)) {
    // The admin area asks more: once the sandbox was told it may be reached from elsewhere, a
    // proxy that adds no forwarding header, or a tunnel whose client calls it localhost, looks
    // just like the developer, so no one is taken for them (the developer's browser signs in
    // with the link the terminal printed). And every account of the machine can connect to
    // loopback: the peer's process must be the developer's own (where the platform says; see
    // peer-account.ts).
    const isDeveloper = () => local && !names.adminTokenFromEveryone && incoming.account?.() !== 'other';
    const sub = path.slice(ADMIN.length);
    return admin(state, { incoming, method, path: sub, query, origin: origin!, base, isDeveloper, adminToken, signInCodes });
  }
  // A service call is taken for one from outside only on evidence (a peer elsewhere, a proxy's
  // headers, the public name): a Fetch host that gives no peer address is not refused service.
  const fromOutside = !local && (peer !== undefined || proxied);
  note.service = true;
  const fault = state.faults.take(method, query === null ? path : `${path}?${query}`);
  if (fault !== undefined) {
    note.fault = fault.kind;
    state.changed(); // a fault used up is visible at once (GET /_sandbox/faults, the change feed)
  }
  if (fault?.kind === 'drop_before_commit') {
    await incoming.read();
    return dropped();
  }
  // A slow service, on the sandbox's clock: a test clock skips it (the request rests meanwhile).
  if (fault?.kind === 'delay') await clock.sleep(fault.ms!, { signal: closing }).catch(() => {});
  const signedUrl = publicUrl === undefined ? url : publicUrl + url.slice(origin!.length);
  const call = { incoming, method, url: signedUrl, pathname: path, query, base, arrivedAt, fault, fromOutside };
  const answer = (await service(state, call)) ?? notFound(method, path);
  const replacement =
    fault?.kind === 'drop_after_commit'
      ? dropped()
      : fault?.kind === 'status_500_after_commit'
        ? fail(500, 'internal_error', 'injected fault status_500_after_commit: the request was handled, then this 500 was sent')
        : undefined;
  if (replacement === undefined) return answer;
  // The request log still says which transaction the request made.
  if (answer.note?.transactionId !== undefined) replacement.note = { ...replacement.note, transactionId: answer.note.transactionId };
  return replacement;
}

function dropped(): Reply {
  const answer = fail(500, 'connection_dropped', 'injected fault: this host cannot drop connections, so it answers 500 instead');
  answer.drop = true;
  return answer;
}

/** The port of an origin (`http://host:port`), or the scheme's default. */
function portOf(origin: string): number {
  const port = /:(\d{1,5})$/.exec(origin)?.[1];
  return port === undefined ? (/^https:/i.test(origin) ? 443 : 80) : Number(port);
}
