// A real HTTP server on loopback for the client's tests. It records every request as received
// (raw bytes, the request target exactly as sent) and checks each signature independently, with
// node:crypto's createHmac, over the URL and bytes it actually got. By default it is a small
// in-memory stand-in of the service; tests script individual answers through `next`.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EXAMPLES } from '@pay/schema/examples';

export const MERCHANT = 'm_test_42';
export const SECRET = 'sk_test_Zq8s3cr3t-v4lue';

/** One request as the server received it. */
export interface Received {
  readonly method: string;
  /** `http://127.0.0.1:<port>` + the request target as sent. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  /** x-signature (or x-simplified-signature for pushes) recomputed here, and whether it matched. */
  readonly expected: string;
  readonly signatureOk: boolean;
  /** Which signature header was checked. */
  readonly scheme: 'x-signature' | 'x-simplified-signature' | 'none';
}

export type Handler = (req: Received, res: ServerResponse, service: Service) => void | Promise<void>;

export interface TestServer {
  readonly base: string;
  readonly received: Received[];
  readonly service: Service;
  /** Handlers for the next requests, used once each in order; then the service answers. */
  readonly next: Handler[];
  close(): Promise<void>;
}

/** Expected x-signature, computed here from first principles. */
export function hmac(text: Buffer | string, secret = SECRET): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

function checkSignature(method: string, url: string, headers: IncomingMessage['headers'], body: Buffer) {
  const merchant = String(headers['x-merchant-id'] ?? '');
  const ts = String(headers['x-timestamp'] ?? '');
  if (headers['x-simplified-signature'] !== undefined) {
    let payinId = '';
    try {
      payinId = String(JSON.parse(body.toString('utf8')).payin_id);
    } catch {}
    const expected = hmac(merchant + ts + payinId);
    return { expected, signatureOk: headers['x-simplified-signature'] === expected, scheme: 'x-simplified-signature' as const };
  }
  if (headers['x-signature'] === undefined) return { expected: '', signatureOk: false, scheme: 'none' as const };
  const head = Buffer.from(merchant + ts + method + url, 'utf8');
  const expected = hmac(method === 'GET' ? head : Buffer.concat([head, body]));
  return { expected, signatureOk: headers['x-signature'] === expected, scheme: 'x-signature' as const };
}

/** A service datetime: ISO 8601 with microseconds, no zone. */
export function serviceTime(date = new Date()): string {
  return `${date.toISOString().slice(0, 23)}456`;
}

/** The in-memory stand-in: records by id and by reference, answers like the service. */
export class Service {
  readonly records = new Map<string, Record<string, unknown>>();
  private seq = 0;
  /** Lookups by reference miss until this epoch ms (lookup lag). */
  lagUntil = 0;
  /** Seconds the Date header is set behind the service's clock. */
  clockBehind = 0;
  /** The service's clock (a test clock's `now`, for tests that move time). */
  now: () => number = () => Date.now();

  commit(resource: string, body: Record<string, unknown>, legacy = false): Record<string, unknown> {
    const id = `${resource === 'payins' ? 'pi' : 'po'}_${++this.seq}`;
    const now = new Date(this.now());
    const record: Record<string, unknown> = {
      id,
      reference_id: body['reference_id'] ?? null,
      status: 'new',
      payment: body['payment'],
      ...(resource === 'payins' && !legacy ? { method: body['method'] ?? null } : {}),
      fee: null,
      created_at: serviceTime(now),
      updated_at: serviceTime(now),
      expires_at: serviceTime(new Date(now.getTime() + 3600_000)),
      error_code: null,
      error_message: null,
      next_action:
        body['method'] === 'card'
          ? { type: 'card_push', url: `${this.base}/card-proxy/v1/push/tok_${id}/` }
          : { type: 'redirect', url: `${this.base}/pay/${id}` },
    };
    this.records.set(`${resource}/${id}`, record);
    return record;
  }

  base = '';

  find(resource: string, reference: string): Record<string, unknown> | undefined {
    for (const [key, record] of this.records) {
      if (key.startsWith(`${resource}/`) && record['reference_id'] === reference) return record;
    }
    return undefined;
  }

  /** How many records carry this reference. */
  count(reference: string): number {
    return [...this.records.values()].filter((r) => r['reference_id'] === reference).length;
  }

  lookupView(record: Record<string, unknown>): Record<string, unknown> {
    const { next_action: _n, method: _m, ...rest } = record;
    return { ...rest, language: 'en', extra_field_from_the_future: { ok: true } };
  }

  /** The default answer to a request. */
  answer(req: Received, res: ServerResponse): void {
    if (!req.signatureOk) return json(res, 401, { error: { code: 'bad_signature', message: 'signature mismatch' } }, this);
    const path = new URL(req.url).pathname;
    const query = new URL(req.url).searchParams;
    const create = /^\/(v1|v2)\/merchants\/(payins|payouts)\/$/.exec(path);
    if (req.method === 'POST' && create) {
      const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
      const existing = typeof body['reference_id'] === 'string' ? this.find(create[2]!, body['reference_id']) : undefined;
      if (existing) return json(res, 409, { error: { code: 'duplicate_reference_id', message: 'exists', id: existing['id'] } }, this);
      return json(res, 200, this.commit(create[2]!, body, create[1] === 'v1'), this);
    }
    const byRef = /^\/v2\/merchants\/(payins|payouts)\/$/.exec(path);
    if (req.method === 'GET' && byRef && query.has('reference_id')) {
      const record = this.now() < this.lagUntil ? undefined : this.find(byRef[1]!, query.get('reference_id')!);
      return record
        ? json(res, 200, this.lookupView(record), this)
        : json(res, 404, { error: { code: 'not_found', message: 'no such reference' } }, this);
    }
    const byId = /^\/v2\/merchants\/(payins|payouts)\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && byId) {
      const record = this.records.get(`${byId[1]}/${decodeURIComponent(byId[2]!)}`);
      return record
        ? json(res, 200, this.lookupView(record), this)
        : json(res, 404, { error: { code: 'not_found', message: 'no such id' } }, this);
    }
    const push = /^\/card-proxy\/v1\/push\/tok_([^/]+)\/$/.exec(path);
    if (req.method === 'POST' && push) {
      const record = this.records.get(`payins/${push[1]}`);
      if (!record) return json(res, 404, { error: { code: 'not_found', message: 'no such token' } }, this);
      record['status'] = 'executed';
      // As the sandbox does: the payin's record, its status the card's outcome.
      return json(res, 200, this.lookupView(record), this);
    }
    json(res, 404, { error: { code: 'not_found', message: 'no route' } }, this);
  }
}

/** Answers JSON, with a Date header from the service's clock. */
export function json(res: ServerResponse, status: number, value: unknown, service?: Service): void {
  const body = JSON.stringify(value);
  const date = new Date((service?.now() ?? Date.now()) - (service?.clockBehind ?? 0) * 1000).toUTCString();
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), date });
  res.end(body);
}

export async function startServer(): Promise<TestServer> {
  const received: Received[] = [];
  const next: Handler[] = [];
  const service = new Service();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = `${base}${req.url}`;
      const method = req.method ?? '';
      const record: Received = { method, url, headers: req.headers, body, ...checkSignature(method, url, req.headers, body) };
      received.push(record);
      const handler = next.shift();
      Promise.resolve(handler ? handler(record, res, service) : service.answer(record, res)).catch((error) => {
        res.destroy(error as Error);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.base = base;
  return {
    base,
    received,
    service,
    next,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A create-payin v2 body that passes the schema: the schema's example, with a decimal-string
 * amount (the client must send its digits as written) and the card method (a push address back).
 */
export function payinBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(EXAMPLES.createPayin), payment: { amount: '10.50', currency: 'EUR' }, method: 'card', ...overrides };
}

/** A legacy create-payin body. */
export function legacyPayinBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(EXAMPLES.createPayinLegacy), ...overrides };
}

/** A create-payout body (no payment page), with a whole-number amount. */
export function payoutBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(EXAMPLES.createPayout), payment: { amount: 25, currency: 'EUR' }, ...overrides };
}

/** The Luhn-valid test card. */
export const CARD = { pan: '4242424242424242', exp_month: '12', exp_year: '2031', csc: '987' };

/** Commits the create a request carries, as the service would; returns the record. */
export function commitRequest(service: Service, req: Received, change: (body: Record<string, unknown>) => void = () => {}) {
  const [, version, resource] = /\/(v1|v2)\/merchants\/(payins|payouts)\/$/.exec(new URL(req.url).pathname)!;
  const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
  change(body);
  return service.commit(resource!, body, version === 'v1');
}
