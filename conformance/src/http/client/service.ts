// The service client mode plays: the embedded sandbox, with a shortened timestamp tolerance,
// behind the runner's proxy (the sandbox told the proxy's origin is its public address, and the
// proxy signs again for it what an SDK signed right under the base path, so what an SDK signs for
// the proxy verifies there). The runner's own calls (a set-up create, the count of
// records through the admin API) are signed with its own code.
import { randomBytes } from 'node:crypto';
import { startSandbox } from '@pay/sandbox';
import { BASE_PATH, CARD_PROXY_PATH, ServiceProxy } from './proxy.js';
import type { Resource } from './routes.js';
import { signatureHeaders } from '../forgery.js';
import { cardNumberOf, redactor, secretOf, type Sensitive } from '../redact.js';
import { TEST_CARD } from '../server/bodies.js';
import { jsonOf, send, type HttpAnswer } from '../send.js';
import type { Signer } from '../../signing.js';

/** A record as the sandbox's admin API lists it. */
export interface AdminRecord {
  id: string;
  kind: string;
  /** null for a create that carried none */
  reference_id: string | null;
}

/** The service of a client-mode run, and how the runner reaches it. */
export interface ClientService {
  proxy: ServiceProxy;
  /** the SDK's base_url: the proxy's origin and BASE_PATH */
  baseUrl: string;
  /** base_url over TLS: the proxy's TLS listener, whose certificate an SDK must refuse, and BASE_PATH */
  tlsBaseUrl: string;
  /** the card proxy's address: the proxy's origin, outside BASE_PATH */
  cardProxyUrl: string;
  me: Signer;
  toleranceSeconds: number;
  /** the run's secret and the card pushed, in every encoding the runner predicts */
  sensitive: Sensitive[];
  /** a text with every form of `sensitive` masked */
  redact: (text: string) => string;
  /** a create the runner sends itself (through the proxy, outside any case's log); its JSON answer */
  create(resource: Resource, version: 'v1' | 'v2', body: Buffer): Promise<HttpAnswer>;
  /** every record of the resource, whatever its reference_id (none included), from the sandbox's admin API */
  list(resource: Resource): Promise<AdminRecord[]>;
  close(): Promise<void>;
}

/** Starts the proxy, then the sandbox behind it with one merchant and a random secret. */
export async function startClientService(toleranceSeconds: number, timeoutMs: number): Promise<ClientService> {
  const proxy = new ServiceProxy();
  const origin = await proxy.listen();
  const baseUrl = `${origin}${BASE_PATH}`;
  const me = { merchantId: 'm_conformance', secret: `sk_test_${randomBytes(16).toString('hex')}` };
  // The sandbox's public address is an origin (it takes no path): the proxy's. Its card-push
  // addresses are under it, where the proxy serves the card proxy.
  const sandbox = await startSandbox({
    merchants: [{ id: me.merchantId, secret: me.secret }],
    port: 0,
    toleranceSeconds,
    publicUrl: origin,
  });
  proxy.upstream = sandbox.url;
  proxy.signer = me;
  const http = { timeoutMs };
  const sensitive = [...secretOf(me.secret), ...cardNumberOf(TEST_CARD.pan)];
  // With the admin token: a tokenless caller makes the sandbox ask the kernel whose process it is,
  // reading socket tables as long as every connection the machine has open or in TIME_WAIT.
  const admin = { authorization: `Bearer ${sandbox.adminToken}` };
  const list = async (resource: Resource): Promise<AdminRecord[]> => {
    const answer = await send({ method: 'GET', url: `${sandbox.url}/_sandbox/transactions`, headers: admin }, http);
    const all = JSON.parse(answer.body.toString('utf8')) as AdminRecord[];
    const kind = resource === 'payins' ? 'payin' : 'payout';
    return all.filter((r) => r.kind === kind);
  };
  return {
    sensitive,
    redact: redactor(sensitive),
    proxy,
    baseUrl,
    tlsBaseUrl: `${proxy.tlsOrigin}${BASE_PATH}`,
    cardProxyUrl: `${origin}${CARD_PROXY_PATH}`,
    me,
    toleranceSeconds,
    async create(resource, version, body) {
      const url = `${baseUrl}/${version}/merchants/${resource}/`;
      const now = Math.floor(Date.now() / 1000);
      const headers = { ...signatureHeaders(me, { method: 'POST', url, body }, now), 'content-type': 'application/json' };
      return send({ method: 'POST', url, headers, body }, http);
    },
    list,
    async close() {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** An answer's id, when it is a JSON record with one. */
export const idOf = (a: HttpAnswer): string | null => {
  const id = jsonOf(a)?.['id'];
  return typeof id === 'string' ? id : null;
};
