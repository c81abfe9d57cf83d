// The service as client mode's SDKs see it: a recording, fault-injecting proxy on loopback in front
// of the embedded sandbox. It keeps its own log of every request (the exact target, headers and
// body bytes), what it did to it, what the sandbox answered and what the SDK got, so the runner
// judges the wire and counts creates from its own records, not the sandbox's and never the SDK's.
// The faults are the runner's own (actions below), applied to the requests a case's rules match.
import { createServer, request as httpRequest, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { routeOf, TRAP_PREFIX, type Route } from './routes.js';

/** What the proxy does to a request a rule matches. */
export type Action =
  /** the connection is closed before the request reaches the service: nothing is created */
  | { kind: 'drop_before_commit' }
  /** the service handles it; its answer is lost (the connection closed instead) */
  | { kind: 'drop_after_commit' }
  /** the service handles it; the SDK gets this status instead of its answer */
  | { kind: 'status_after_commit'; status: number }
  /** held `ms` before it reaches the service (past the SDK's time limit), then handled */
  | { kind: 'late_commit'; ms: number }
  /**
   * held until just before its x-timestamp + `toleranceSeconds` (the last moment the service
   * accepts it), then handled; its answer lost, and what it creates missing from lookups for `lagMs`
   */
  | { kind: 'commit_at_deadline'; toleranceSeconds: number; lagMs: number }
  /** handled; its answer held `ms` before the SDK gets it (past the SDK's time limit), unless the SDK hangs up first */
  | { kind: 'hold_answer'; ms: number }
  /** handled; what it creates is missing from lookups (404) for `ms` after; its answer lost too when `dropAnswer` */
  | { kind: 'lookup_lag'; ms: number; dropAnswer?: boolean }
  /** answered by the proxy itself, never reaching the service */
  | { kind: 'answer'; status: number; contentType: string; body: string }
  /** refused by the proxy (403), whatever the rules: not an address of the interface (the sandbox's admin API, say) */
  | { kind: 'refuse' }
  /** answered 200 with a Content-Length longer than the body sent, and the connection closed */
  | { kind: 'truncate' }
  /** answered with a redirect to the same request under TRAP_PREFIX */
  | { kind: 'redirect'; status: number }
  /** handled; its JSON answer rewritten before the SDK gets it, with another 2xx status when `status` is given */
  | { kind: 'rewrite'; rewrite: (body: Record<string, unknown>) => Record<string, unknown>; status?: number }
  /**
   * handled; its answer sent chunked (no Content-Length), cut inside every multi-byte UTF-8
   * character so that each one arrives in two chunks
   */
  | { kind: 'split_utf8' }
  /**
   * handled; its answer written raw on the socket, byte for byte as `head` gives its header lines
   * (their names' case, their order, their spacing, as a server library would not write them),
   * then the body, then the connection closed. With no Content-Length among them, the close is
   * what ends the body (HTTP/1.0's framing, which HTTP/1.1 keeps).
   */
  | { kind: 'raw'; head: (body: Buffer) => readonly string[] }
  /** handled; answered with this Content-Type, another spelling of JSON's */
  | { kind: 'content_type'; contentType: string }
  /** handled; the connection kept alive after its answer (every other answer closes it) */
  | { kind: 'keep_alive' }
  /**
   * arriving on a connection that already carried a request (one kept alive): the connection
   * closed with no answer, the request never reaching the service, as when a service's idle
   * timeout runs out just as a request comes; on a new connection, handled as any
   */
  | { kind: 'close_kept_alive' }
  /** the service handles it; a gateway in front answers the SDK `status` with its own HTML page */
  | { kind: 'gateway_after_commit'; status: number };

/** Which requests a rule applies to, and how many of them. */
export interface Rule {
  on: Route['kind'];
  /** how many matching requests it applies to (default: all) */
  count?: number;
  /** it applies only until this many seconds after the x-timestamp of the case's first create (default: always) */
  untilAfterCreate?: number;
  action: Action;
}

/** What the SDK got for a request. */
type Delivered = { kind: 'answer'; status: number } | { kind: 'dropped' } | { kind: 'truncated' };

/** One request as the proxy saw and handled it. */
export interface Exchange {
  seq: number;
  /** wall clock at arrival, ms */
  at: number;
  method: string;
  /** the request target exactly as received */
  target: string;
  /** whether it came on a connection that had carried an earlier request (one kept alive) */
  reused?: boolean;
  /** header names in lower case; a header sent twice keeps its values joined by ", " */
  headers: Record<string, string>;
  body: Buffer;
  route: Route;
  /** the fault or answer the proxy applied, by kind */
  action: Action['kind'] | null;
  /** what the sandbox answered, when the request reached it */
  upstream: { status: number; body: Buffer } | null;
  /** what the SDK was sent */
  delivered: Delivered | null;
  /** wall clock when it was sent (or the connection closed), ms */
  deliveredAt: number | null;
  /** the body the SDK was sent, when it got a complete answer */
  deliveredBody: Buffer | null;
}

const REFUSED = JSON.stringify({
  error: { code: 'forbidden', message: "not an address of the interface: the runner's proxy forwards only the service's endpoints" },
});
const NOT_FOUND = JSON.stringify({ error: { code: 'not_found', message: 'no transaction with this id or reference_id' } });
/** How long settle() still waits for a request the sandbox has not answered once the case's deadline has passed. */
const SETTLE_GRACE_MS = 2000;
/** The pause between the chunks of a split answer. */
const SPLIT_PAUSE_MS = 5;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade']);

/** The proxy, on a random loopback port, forwarding to `upstream` (an origin). */
export class ServiceProxy {
  /** every request since the last clear() */
  readonly log: Exchange[] = [];
  private rules: (Rule & { count: number })[] = [];
  /** ids and references missing from lookups until a wall-clock time (ms) */
  private readonly lagging = new Map<string, number>();
  private seq = 0;
  /** requests still being handled (a held one, say): settle() waits for them */
  private readonly pending = new Set<Promise<void>>();
  /**
   * When the case in progress must be over (wall clock, ms): no hold lasts past it, whatever the
   * SDK's x-timestamp says, so a case never waits on a time the SDK chose.
   */
  private deadline = Number.POSITIVE_INFINITY;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  /** How many requests each connection has carried: the second on one is on a connection kept alive. */
  private readonly carried = new WeakMap<Socket, number>();
  origin = '';
  upstream = '';

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
    // Connections are closed after each answer, but where a case keeps one alive: then it stays
    // open long enough for the SDK's next command, on the slowest machine.
    this.server.keepAliveTimeout = 10_000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Listens on loopback; returns its origin. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  /**
   * Forgets the log, the rules and the lag of the case before; `limitMs`, the case's own time
   * limit from now, bounds every hold of the case (none when not given).
   */
  clear(rules: readonly Rule[] = [], limitMs = Number.POSITIVE_INFINITY): void {
    this.log.length = 0;
    this.rules = rules.map((r) => ({ count: Number.POSITIVE_INFINITY, ...r }));
    this.lagging.clear();
    this.deadline = Date.now() + limitMs;
  }

  /**
   * Resolves once every request received so far has been handled (forwarded, answered or
   * dropped): holds end by the case's deadline, and the wait with them; a request the sandbox
   * still has not answered a little after it is cut off.
   */
  async settle(): Promise<void> {
    const giveUp = this.deadline + SETTLE_GRACE_MS - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = Number.isFinite(giveUp)
      ? new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, giveUp))))
      : null;
    try {
      while (this.pending.size > 0) {
        const all = Promise.all([...this.pending]);
        if ((await (late ? Promise.race([all, late]) : all)) === 'late') {
          for (const s of this.sockets) s.destroy();
          return;
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits `ms`, never past the case's deadline. */
  private hold(ms: number): Promise<void> {
    const bounded = Math.max(0, Math.min(ms, this.deadline - Date.now()));
    return new Promise((resolve) => setTimeout(resolve, bounded));
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const target = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const carried = this.carried.get(req.socket) ?? 0;
      this.carried.set(req.socket, carried + 1);
      const ex: Exchange = {
        seq: ++this.seq,
        at: Date.now(),
        method,
        target,
        reused: carried > 0,
        headers,
        body: Buffer.concat(chunks),
        route: routeOf(method, target),
        action: null,
        upstream: null,
        delivered: null,
        deliveredAt: null,
        deliveredBody: null,
      };
      this.log.push(ex);
      const p = this.serve(ex, res).catch(() => {
        res.destroy();
      });
      this.pending.add(p);
      void p.finally(() => this.pending.delete(p));
    });
  }

  /** The first rule matching a request, with one use taken from it. */
  private take(route: Route): Action | null {
    const rule = this.rules.find((r) => r.count > 0 && r.on === route.kind && this.inTime(r));
    if (!rule) return null;
    rule.count--;
    return rule.action;
  }

  private async serve(ex: Exchange, res: ServerResponse): Promise<void> {
    if (!forwardable(upstreamTarget(ex))) {
      // The sandbox behind the proxy also serves its admin API and dashboard (on loopback, and the
      // proxy's requests come from loopback): an SDK under test must never reach them.
      ex.action = 'refuse';
      return this.deliver(ex, res, 403, 'application/json', Buffer.from(REFUSED));
    }
    if (this.isLagging(ex)) return this.deliver(ex, res, 404, 'application/json', Buffer.from(NOT_FOUND));
    const action = this.take(ex.route);
    ex.action = action?.kind ?? null;
    switch (action?.kind) {
      case 'drop_before_commit':
        return this.drop(ex, res);
      case 'close_kept_alive':
        if (ex.reused === true) return this.drop(ex, res);
        break;
      case 'answer':
        return this.deliver(ex, res, action.status, action.contentType, Buffer.from(action.body, 'utf8'));
      case 'redirect':
        res.setHeader('location', `${this.origin}${TRAP_PREFIX}${ex.target}`);
        return this.deliver(ex, res, action.status, 'text/plain', Buffer.from('moved'));
      case 'truncate': {
        const body = Buffer.from('{"id":"pi_truncated","reference_id":"');
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length + 400) });
        res.write(body);
        ex.delivered = { kind: 'truncated' };
        ex.deliveredAt = Date.now();
        setTimeout(() => res.destroy(), 20);
        return;
      }
      case 'late_commit':
        await this.hold(action.ms);
        break;
      case 'commit_at_deadline': {
        // 200 ms before the tolerance ends by the wall clock: still accepted, whether the service
        // compares whole seconds or milliseconds; past the SDK's time limit by far. Counted from
        // the x-timestamp, or from the arrival when that is earlier: an x-timestamp hours ahead (a
        // clock or time-zone mistake) would hold the request for hours.
        const from = Math.min(sentAt(ex), ex.at);
        await this.hold(from + action.toleranceSeconds * 1000 - 200 - Date.now());
        break;
      }
    }
    const up = await this.forward(ex);
    ex.upstream = up;
    // The faults "after commit" apply to a request the service accepted; a refusal reaches the SDK as it is.
    const committed = up.status >= 200 && up.status < 300;
    if (committed && action?.kind === 'drop_after_commit') return this.drop(ex, res);
    if (committed && action?.kind === 'status_after_commit') {
      const body = JSON.stringify({ error: { code: 'internal_error', message: 'the service failed after handling the request' } });
      return this.deliver(ex, res, action.status, 'application/json', Buffer.from(body));
    }
    if (committed && action?.kind === 'gateway_after_commit') {
      const page = `<html><head><title>${action.status} ${STATUS_CODES[action.status] ?? ''}</title></head><body><center><h1>${action.status} ${STATUS_CODES[action.status] ?? ''}</h1></center></body></html>`;
      return this.deliver(ex, res, action.status, 'text/html', Buffer.from(page));
    }
    if (committed && action?.kind === 'lookup_lag') {
      this.lag(up.body, action.ms);
      if (action.dropAnswer) return this.drop(ex, res);
    }
    if (committed && action?.kind === 'commit_at_deadline') {
      this.lag(up.body, action.lagMs);
      return this.drop(ex, res);
    }
    if (action?.kind === 'hold_answer') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, Math.min(action.ms, this.deadline - Date.now())));
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (committed && action?.kind === 'rewrite') {
      const rewritten = Buffer.from(
        JSON.stringify(action.rewrite(JSON.parse(up.body.toString('utf8')) as Record<string, unknown>)),
        'utf8',
      );
      return this.deliver(ex, res, action.status ?? up.status, 'application/json', rewritten);
    }
    if (committed && action?.kind === 'split_utf8') return this.deliverSplit(ex, res, up.status, up.contentType, up.body);
    if (committed && action?.kind === 'raw') return this.deliverRaw(ex, res, up.status, action.head(up.body), up.body);
    if (committed && action?.kind === 'content_type') return this.deliver(ex, res, up.status, action.contentType, up.body);
    return this.deliver(ex, res, up.status, up.contentType, up.body);
  }

  /**
   * Whether a rule still applies: before its time after the case's first create (its x-timestamp,
   * or its arrival when that is earlier: a timestamp ahead never stretches a rule), when it has one.
   */
  private inTime(rule: Rule): boolean {
    if (rule.untilAfterCreate === undefined) return true;
    const first = this.log.find((ex) => ex.route.kind === 'create');
    return first !== undefined && Date.now() < Math.min(sentAt(first), first.at) + rule.untilAfterCreate * 1000;
  }

  /** Whether a lookup asks for a record still hidden by a lookup_lag. */
  private isLagging(ex: Exchange): boolean {
    const r = ex.route;
    const key =
      r.kind === 'lookup-id'
        ? `id:${safeDecode(r.rawId)}`
        : r.kind === 'lookup-ref'
          ? `ref:${safeDecode(r.rawQuery.replace(/^reference_id=/, ''))}`
          : null;
    const until = key === null ? undefined : this.lagging.get(key);
    return until !== undefined && Date.now() < until;
  }

  private lag(answer: Buffer, ms: number): void {
    const record = JSON.parse(answer.toString('utf8')) as { id?: unknown; reference_id?: unknown };
    const until = Date.now() + ms;
    if (typeof record.id === 'string') this.lagging.set(`id:${record.id}`, until);
    if (typeof record.reference_id === 'string') this.lagging.set(`ref:${record.reference_id}`, until);
  }

  private drop(ex: Exchange, res: ServerResponse): void {
    ex.delivered = { kind: 'dropped' };
    ex.deliveredAt = Date.now();
    res.socket?.destroy();
    res.destroy();
  }

  private deliver(ex: Exchange, res: ServerResponse, status: number, contentType: string, body: Buffer): void {
    // The SDK hung up first (its time limit ran out): it got nothing.
    if (res.destroyed || !res.socket || res.socket.destroyed) {
      this.drop(ex, res);
      return;
    }
    ex.delivered = { kind: 'answer', status };
    ex.deliveredAt = Date.now();
    ex.deliveredBody = body;
    res.writeHead(status, {
      'content-type': contentType,
      'content-length': String(body.length),
      date: new Date().toUTCString(),
      ...closing(ex),
    });
    res.end(body);
  }

  /**
   * An answer written on the socket as it is: the status line, the header lines exactly as given,
   * the body, and the connection closed (Node's ServerResponse would write its own Date and
   * Connection lines, in its own case and order).
   */
  private deliverRaw(ex: Exchange, res: ServerResponse, status: number, lines: readonly string[], body: Buffer): void {
    const socket = res.socket;
    if (res.destroyed || !socket || socket.destroyed) {
      this.drop(ex, res);
      return;
    }
    ex.delivered = { kind: 'answer', status };
    ex.deliveredAt = Date.now();
    ex.deliveredBody = body;
    socket.end(
      Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]),
    );
  }

  /**
   * An answer sent chunked, each chunk ending inside a multi-byte UTF-8 character (its first byte
   * in one chunk, the rest in the next), a few milliseconds apart so that each arrives on its own.
   * HTTP lets a service frame a body in any chunks, and a reader must join the bytes before it
   * decodes them.
   */
  private async deliverSplit(ex: Exchange, res: ServerResponse, status: number, contentType: string, body: Buffer): Promise<void> {
    if (res.destroyed || !res.socket || res.socket.destroyed) return this.drop(ex, res);
    ex.delivered = { kind: 'answer', status };
    ex.deliveredBody = body;
    // The SDK may hang up between two chunks: what is left is written to nobody.
    res.on('error', () => {});
    res.writeHead(status, { 'content-type': contentType, date: new Date().toUTCString(), ...closing(ex) });
    let from = 0;
    for (let i = 0; i < body.length; i++) {
      // A lead byte of a 2- to 4-byte sequence: the chunk ends just after it.
      if (body[i]! < 0xc0) continue;
      res.write(body.subarray(from, i + 1));
      from = i + 1;
      await this.hold(SPLIT_PAUSE_MS);
    }
    ex.deliveredAt = Date.now();
    res.end(body.subarray(from));
  }

  /** The request sent on to the sandbox as received (target, headers, bytes); its whole answer. */
  private forward(ex: Exchange): Promise<{ status: number; body: Buffer; contentType: string }> {
    const up = new URL(this.upstream);
    const target = upstreamTarget(ex);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(ex.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
    headers['content-length'] = String(ex.body.length);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ hostname: up.hostname, port: up.port, method: ex.method, path: target, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            contentType: res.headers['content-type'] ?? 'application/json',
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(ex.body);
    });
  }
}

/**
 * The Connection header of an answer: the connection is closed after each one (HTTP lets a
 * service close it whenever it likes), but where a case keeps it alive. So an SDK that keeps
 * connections alive reuses one only where a case means it to, whatever the cases before it did.
 */
const closing = (ex: Exchange): Record<string, string> => (ex.action === 'keep_alive' ? {} : { connection: 'close' });

/** A request's x-timestamp in epoch ms, or its arrival when it has none in whole seconds. */
const sentAt = (ex: Exchange): number => {
  const ts = ex.headers['x-timestamp'] ?? '';
  return /^[0-9]{1,11}$/.test(ts) ? Number(ts) * 1000 : ex.at;
};

/** The request target sent on to the sandbox: a followed redirect's without the trap's prefix. */
const upstreamTarget = (ex: Exchange) => (ex.route.kind === 'trap' ? ex.target.slice(TRAP_PREFIX.length) : ex.target);

/**
 * Whether a request target is one of the interface's addresses, which the sandbox may see: under
 * /v1/merchants/, /v2/merchants/ or the card proxy, with no dot segment and nothing that decodes
 * to the sandbox's own paths (its admin API is /_sandbox/, its pages elsewhere).
 */
export function forwardable(target: string): boolean {
  if (!/^\/(?:v1\/merchants|v2\/merchants|card-proxy\/v1\/push)\//.test(target)) return false;
  const path = safeDecode(target.split(/[?#]/)[0]!).toLowerCase();
  return !path.includes('_sandbox') && !/(?:^|\/)\.{1,2}(?:\/|$)/.test(path) && !path.includes('\\');
}

/** A percent-encoded value decoded, or as it is when it cannot be. */
function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
