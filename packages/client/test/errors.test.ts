// Every error class, from a scripted server over real HTTP: what the service (or the network)
// does, and the typed error the caller gets, with the raw answer reachable on it.
import http from 'node:http';
import https from 'node:https';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  createClient,
  InvalidRequestError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PayError,
  TimeoutError,
} from '../src/index.js';
import type { ReconcileEvent, RetryEvent } from '../src/index.js';
import { withGlobalAgent } from './helpers/global-agent.js';
import {
  json,
  legacyPayinBody,
  MERCHANT,
  payinBody,
  payoutBody,
  SECRET,
  serviceTime,
  startServer,
  type TestServer,
} from './helpers/server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const client = (extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: SECRET, retries: 0, ...extra });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

const RECORD = {
  id: 'pi_1',
  reference_id: 'r-1',
  status: 'executed',
  payment: { amount: 10.5, currency: 'EUR' },
  fee: { amount: 0.3, currency: 'EUR' },
  created_at: serviceTime(),
  updated_at: serviceTime(),
  expires_at: serviceTime(),
  error_code: null,
  error_message: null,
};

describe('answers the client refuses to read', () => {
  it('an HTML 502 page: ApiError with the status and the page as the raw body, after the retries', async () => {
    const page = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const html = () => (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(page);
    };
    server.next.push(html(), html(), html());
    const retries: RetryEvent[] = [];
    const error = await failure(client({ retries: 2, hooks: { onRetry: (e: RetryEvent) => retries.push(e) } }).payins.get('pi_1'));
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(502);
    expect(api.code).toBeUndefined();
    expect(api.response.body).toBe(page);
    expect(api.response.headers.get('content-type')).toBe('text/html');
    expect(server.received).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([
      [2, 'status 502'],
      [3, 'status 502'],
    ]);
  });

  it('200 with a content type that is not JSON: InvalidResponseError', async () => {
    server.next.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(JSON.stringify(RECORD));
    });
    const error = await failure(client().payins.get('pi_1'));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toMatch(/content type "text\/html; charset=utf-8", not JSON/);
    expect((error as InvalidResponseError).response.status).toBe(200);
  });

  it('200 with JSON cut short (the connection closed cleanly): InvalidResponseError', async () => {
    server.next.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(RECORD).slice(0, 40));
    });
    const error = await failure(client().payins.get('pi_1'));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).response.body).toBe(JSON.stringify(RECORD).slice(0, 40));
  });

  it('a body shorter than its Content-Length (connection dropped mid-body): NetworkError', async () => {
    server.next.push((_req, res) => {
      const body = JSON.stringify(RECORD);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length + 100 });
      res.write(body);
      setImmediate(() => res.socket?.destroy());
    });
    const error = await failure(client().payins.get('pi_1'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/while the answer was being read/);
  });

  it('JSON that is not a payin: InvalidResponseError with the field paths', async () => {
    server.next.push((_req, res) => json(res, 200, { ...RECORD, id: 42, created_at: 'yesterday' }));
    const error = (await failure(client().payins.get('pi_1'))) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.errors.map((e) => e.path)).toEqual(['id', 'created_at']);
  });

  it('an impossible datetime: InvalidResponseError', async () => {
    server.next.push((_req, res) => json(res, 200, { ...RECORD, created_at: '2023-02-30T10:00:00.000000' }));
    const error = (await failure(client().payins.get('pi_1'))) as InvalidResponseError;
    expect(error.errors).toEqual([{ path: 'created_at', message: 'is not a real date and time' }]);
  });

  it('a huge body (8 MiB, streamed without a length): only the first MiB is read', async () => {
    let written = 0;
    server.next.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (written < 8 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => {});
      pump();
    });
    const error = (await failure(client().payins.get('pi_1'))) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toMatch(/larger than the read limit/);
    expect(error.response.truncated).toBe(true);
    expect(error.response.body.length).toBe(1024 * 1024);
  });

  // The read limit's edge, streamed without a length in chunks that do not divide it: a body of
  // exactly the limit is read whole, one byte more is cut.
  it.each([
    [0, false],
    [1, true],
  ])('a body of the read limit + %i bytes, streamed: truncated %s', async (extra, truncated) => {
    const record = Buffer.from(JSON.stringify(RECORD));
    const body = Buffer.concat([record, Buffer.alloc(1024 * 1024 - record.length + extra, 0x20)]);
    server.next.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < body.length; at += 9973) res.write(body.subarray(at, at + 9973));
      res.end();
    });
    const call = client().payins.get('pi_1');
    if (truncated) {
      const error = (await failure(call)) as InvalidResponseError;
      expect(error.message).toMatch(/larger than the read limit/);
      expect(error.response.truncated).toBe(true);
      expect(error.response.body).toBe(body.subarray(0, 1024 * 1024).toString());
    } else {
      const { data, response } = await call;
      expect(data.id).toBe('pi_1');
      expect(response.truncated).toBe(false);
      expect(response.body.length).toBe(1024 * 1024);
    }
  });

  it('a huge error body announced by Content-Length: ApiError with the start of it', async () => {
    server.next.push((_req, res) => {
      const body = `{"error":{"code":"boom"}}${' '.repeat(3 * 1024 * 1024)}`;
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    const error = (await failure(client().payins.get('pi_1'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.response.truncated).toBe(true);
    expect(error.code).toBeUndefined(); // a cut body is not parsed
  });

  it('a redirect is not followed: ApiError 307', async () => {
    server.next.push((_req, res) => {
      res.writeHead(307, { location: 'https://elsewhere.example/' });
      res.end();
    });
    const error = (await failure(client().payins.get('pi_1'))) as ApiError;
    expect(error.status).toBe(307);
    expect(server.received).toHaveLength(1);
  });
});

describe('refusals', () => {
  it('401: AuthenticationError with the service code', async () => {
    const error = (await failure(
      createClient({ baseUrl: server.base, merchantId: MERCHANT, secret: 'wrong' }).payins.get('pi_1'),
    )) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.code).toBe('bad_signature');
    expect(error.message).toBe('payins.get: the service answered 401: bad_signature: signature mismatch');
  });

  it('404: NotFoundError, not retried', async () => {
    const error = (await failure(client({ retries: 3 }).payouts.getByReference('nope'))) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(server.received).toHaveLength(1);
  });

  // Only the service's own "no such record" is a NotFoundError, which a merchant may take as proof
  // that a create never happened; a page some proxy answers with a 404 proves nothing.
  it.each([
    ['an HTML page', { 'content-type': 'text/html' }, '<html><h1>404 Not Found</h1></html>'],
    ['no body', {}, ''],
    ['JSON cut short', { 'content-type': 'application/json' }, '{"error":{"code":"not_fo'],
  ])('a 404 with %s: ApiError, not NotFoundError', async (_label, headers, body) => {
    server.next.push((_req, res) => {
      res.writeHead(404, headers);
      res.end(body);
    });
    const error = (await failure(client().payouts.getByReference('nope'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(404);
    expect(error.response.body).toBe(body);
  });

  it('400 on a create: ApiError, nothing re-sent', async () => {
    server.next.push((_req, res) =>
      json(res, 400, { error: { code: 'invalid_request', message: 'bad', errors: [{ path: 'customer.email', message: 'is required' }] } }),
    );
    const error = (await failure(client({ retries: 3 }).payins.create(payinBody() as never))) as ApiError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(JSON.parse(error.response.body).error.errors[0].path).toBe('customer.email');
    expect(server.received).toHaveLength(1);
  });

  it('429 and 503 with Retry-After: retried after the delay asked', async () => {
    server.next.push(
      (_req, res) => {
        res.writeHead(429, { 'retry-after': '0' });
        res.end();
      },
      (_req, res) => {
        res.writeHead(503, { 'retry-after': new Date(Date.now() - 1000).toUTCString() });
        res.end();
      },
      (_req, res) => json(res, 200, RECORD),
    );
    const retries: RetryEvent[] = [];
    const result = await client({ retries: 2, hooks: { onRetry: (e: RetryEvent) => retries.push(e) } }).payins.get('pi_1');
    expect(result.data.status).toBe('executed');
    expect(retries.map((r) => [r.reason, r.delayMs])).toEqual([
      ['status 429', 0],
      ['status 503', 0],
    ]);
    // Each retry is signed afresh and still over the same URL.
    expect(server.received.every((r) => r.signatureOk && r.url.endsWith('/v2/merchants/payins/pi_1'))).toBe(true);
  });

  it('a Retry-After longer than the time left is not waited for', async () => {
    server.next.push((_req, res) => {
      res.writeHead(503, { 'retry-after': '3600' });
      res.end();
    });
    const error = (await failure(client({ retries: 5 }).payins.get('pi_1'))) as ApiError;
    expect(error.status).toBe(503);
    expect(server.received).toHaveLength(1);
  });
});

describe('no answer', () => {
  it('connection reset: NetworkError', async () => {
    server.next.push((_req, res) => void res.socket?.destroy());
    const error = await failure(client().payins.get('pi_1'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(PayError);
  });

  it('a reset lookup is retried', async () => {
    server.next.push((_req, res) => void res.socket?.destroy());
    server.next.push((_req, res) => json(res, 200, RECORD));
    const result = await client({ retries: 1 }).payins.get('pi_1');
    expect(result.data.id).toBe('pi_1');
    expect(server.received).toHaveLength(2);
  });

  it('connection refused: NetworkError naming ECONNREFUSED', async () => {
    const port = await closedPort();
    const error = await failure(
      createClient({ baseUrl: `http://127.0.0.1:${port}`, merchantId: MERCHANT, secret: SECRET, retries: 1 }).payins.get('x'),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('no answer within timeoutMs: TimeoutError', async () => {
    server.next.push(() => {}); // never answers
    const error = await failure(client({ timeoutMs: 200 }).payins.get('pi_1'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/timeoutMs \(200 ms\)/);
  });

  it('headers, then a body that never ends: TimeoutError (the limit covers the body)', async () => {
    server.next.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    const error = await failure(client({ timeoutMs: 200 }).payins.get('pi_1'));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('totalTimeoutMs bounds the retries', async () => {
    server.next.push(
      () => {},
      () => {},
      () => {},
    );
    const error = await failure(client({ timeoutMs: 150, totalTimeoutMs: 250, retries: 5 }).payins.get('pi_1'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.received.length).toBeLessThanOrEqual(2);
  });

  it("the caller's AbortSignal: the call rejects with the signal's reason", async () => {
    server.next.push(() => {});
    const controller = new AbortController();
    const pending = failure(client().payins.get('pi_1', { signal: controller.signal }));
    while (server.received.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    const error = (await pending) as Error;
    expect(error.name).toBe('AbortError');
  });

  it("the caller's AbortSignal while the body arrives: rejects with the signal's reason and closes the connection", async () => {
    let closed!: Promise<void>;
    let writing!: () => void;
    const wrote = new Promise<void>((resolve) => (writing = resolve));
    server.next.push((_req, res) => {
      closed = new Promise((resolve) => res.socket!.once('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":', () => writing());
    });
    const controller = new AbortController();
    const pending = failure(client().payins.get('pi_1', { signal: controller.signal }));
    await wrote;
    await new Promise((r) => setTimeout(r, 20)); // let the headers and the first bytes arrive
    controller.abort(new Error('customer left'));
    expect(((await pending) as Error).message).toBe('customer left');
    await closed; // resolves only if the client dropped the connection
  });

  it.each([
    ['a 101 Switching Protocols nobody asked for', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n'],
    ['bytes that are not HTTP', 'hello\r\n\r\n'],
  ])('%s: NetworkError, not a hang', async (_label, bytes) => {
    server.next.push((_req, res) => {
      res.socket!.end(bytes);
    });
    const error = await failure(client({ timeoutMs: 10_000 }).payins.get('pi_1'));
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('a look-alike signal without the listener methods: TypeError, and nothing is sent', async () => {
    for (const signal of [{ aborted: false }, { aborted: false, addEventListener() {} }, 'abort']) {
      await expect(async () => client().payins.create(payinBody() as never, { signal: signal as never })).rejects.toThrow(
        /payins\.create: options\.signal must be an AbortSignal/,
      );
    }
    expect(server.received).toHaveLength(0);
  });

  // On Node the client sends through http.globalAgent; an agent with maxSockets queues requests
  // until a connection is free, and Node ends a destroyed queued request only when one is.
  it.runIf(inject('exchange') === 'node')(
    "waiting for a free connection (a global agent with maxSockets 1, busy): timeoutMs and the caller's signal still end the attempt; it never left, so a create is not reconciled",
    async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      server.next.push((_req, res) => void held.then(() => json(res, 200, RECORD)));
      await withGlobalAgent(http, new http.Agent({ keepAlive: true, maxSockets: 1 }), async () => {
        try {
          const busy = client({ timeoutMs: 60_000 }).payins.get('pi_1');
          while (server.received.length === 0) await new Promise((r) => setImmediate(r));
          // The one connection stays busy until the end: each call below settles only if its own
          // limit or signal ends it (otherwise the test times out).
          expect(await failure(client({ timeoutMs: 100 }).payins.get('pi_1'))).toBeInstanceOf(TimeoutError);
          const controller = new AbortController();
          setTimeout(() => controller.abort(new Error('customer left')), 50);
          expect(((await failure(client().payins.get('pi_1', { signal: controller.signal }))) as Error).message).toBe('customer left');
          const reconciled: ReconcileEvent[] = [];
          const onReconcile = (event: ReconcileEvent) => void reconciled.push(event);
          expect(await failure(client({ timeoutMs: 100, hooks: { onReconcile } }).payins.create(payinBody() as never))).toBeInstanceOf(
            TimeoutError,
          );
          expect(reconciled).toEqual([]);
          expect(server.received).toHaveLength(1); // only the call holding the connection
          release();
          expect((await busy).data.id).toBe('pi_1');
        } finally {
          release();
        }
      });
    },
  );

  it.runIf(inject('exchange') === 'node')(
    'a request Node refuses to start (an https agent set as http.globalAgent): NetworkError naming the code; a create is not reconciled',
    async () => {
      await withGlobalAgent(http, new https.Agent(), async () => {
        const reconciled: ReconcileEvent[] = [];
        const onReconcile = (event: ReconcileEvent) => void reconciled.push(event);
        const error = await failure(client({ retries: 1, hooks: { onReconcile } }).payins.create(payinBody() as never));
        expect(error).toBeInstanceOf(NetworkError);
        expect((error as Error).message).toMatch(/ERR_INVALID_PROTOCOL/);
        expect(reconciled).toEqual([]);
        expect(server.received).toHaveLength(0);
      });
    },
  );

  it('an already aborted signal: nothing is sent', async () => {
    const error = await failure(client().payins.get('pi_1', { signal: AbortSignal.abort(new Error('stop')) }));
    expect((error as Error).message).toBe('stop');
    expect(server.received).toHaveLength(0);
  });
});

describe('invalid requests: nothing sent, every field path listed', () => {
  it('a body failing the schema', async () => {
    const body = payinBody({ payment: { amount: '10,50', currency: 'eur' }, webhook_url: 'ftp://x', extra: 1 });
    const error = (await failure(client().payins.create(body as never))) as InvalidRequestError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.errors.map((e) => e.path)).toEqual(['payment.amount', 'payment.currency', 'webhook_url', 'extra']);
    expect(error.message).toMatch(/^payins\.create: invalid request, nothing was sent: payment\.amount: /);
    expect(server.received).toHaveLength(0);
  });

  it.each([
    ['', 'must not be empty'],
    ['..', 'must not be "." or ".."'],
    ['a\ud800b', 'must be well-formed Unicode (it contains a lone surrogate)'],
    [42, 'must be a string, got number'],
  ])('get(%j)', async (id, message) => {
    const error = (await failure(client().payins.get(id as string))) as InvalidRequestError;
    expect(error.errors).toEqual([{ path: 'id', message }]);
    expect(server.received).toHaveLength(0);
  });

  it('getByReference with a reference longer than 64 characters', async () => {
    const error = (await failure(client().payouts.getByReference('r'.repeat(65)))) as InvalidRequestError;
    expect(error.errors[0]!.path).toBe('reference_id');
  });

  it('a create whose reference_id has a lone surrogate (it could never be looked up)', async () => {
    const error = (await failure(client().payins.create(payinBody({ reference_id: 'x\udc00' }) as never))) as InvalidRequestError;
    expect(error.errors.map((e) => e.path)).toContain('reference_id');
  });

  describe("money and email mistakes: refused with the schema's path and message, before anything is sent", () => {
    const creates = [
      ['payins.create', (c: ReturnType<typeof client>, body: unknown) => c.payins.create(body as never), payinBody],
      ['payins.createLegacy', (c: ReturnType<typeof client>, body: unknown) => c.payins.createLegacy(body as never), legacyPayinBody],
      ['payouts.create', (c: ReturnType<typeof client>, body: unknown) => c.payouts.create(body as never), payoutBody],
    ] as const;
    const NOT_ISO = 'must be an ISO 4217 currency code in use, in capitals, such as EUR, USD or JPY';
    // [what is wrong, the body's change, the one error expected]
    const mistakes: [string, Record<string, unknown>, { path: string; message: string }][] = [
      ['currency ABC', { payment: { amount: 10, currency: 'ABC' } }, { path: 'payment.currency', message: NOT_ISO }],
      ['0.001 EUR', { payment: { amount: 0.001, currency: 'EUR' } }, { path: 'payment.amount', message: 'EUR has 2 decimals; got 3' }],
      ['1e-7 EUR', { payment: { amount: 1e-7, currency: 'EUR' } }, { path: 'payment.amount', message: 'EUR has 2 decimals; got 7' }],
      [
        '"10.505" EUR',
        { payment: { amount: '10.505', currency: 'EUR' } },
        { path: 'payment.amount', message: 'EUR has 2 decimals; got 3' },
      ],
      [
        '0.1 + 0.2 EUR',
        { payment: { amount: 0.1 + 0.2, currency: 'EUR' } },
        { path: 'payment.amount', message: 'EUR has 2 decimals; got 17' },
      ],
    ];
    for (const [operation, create, body] of creates) {
      it.each(mistakes)(`${operation}: %s`, async (_what, change, expected) => {
        const error = (await failure(create(client(), body(change)))) as InvalidRequestError;
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect(error.errors).toEqual([expected]);
        expect(error.message).toBe(`${operation}: invalid request, nothing was sent: ${expected.path}: ${expected.message}`);
        expect(server.received).toHaveLength(0);
      });

      it(`${operation}: an email that is not an address`, async () => {
        const valid = body();
        const customer = { ...(valid['customer'] as object), email: 'not-an-email' };
        const error = (await failure(create(client(), { ...valid, customer }))) as InvalidRequestError;
        expect(error.errors).toEqual([
          { path: 'customer.email', message: 'must be an email address such as jane@shop.example: it has no @' },
        ]);
        expect(server.received).toHaveLength(0);
      });
    }
  });

  it('a body that is not an object', async () => {
    for (const body of [null, [], 'text', 42]) {
      const error = (await failure(client().payouts.create(body as never))) as InvalidRequestError;
      expect(error.errors).toEqual([{ path: '', message: 'must be an object (the request body)' }]);
    }
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
