// Client mode's proxy over real HTTP, in front of a real embedded sandbox: it forwards the
// interface's addresses and nothing else. The sandbox's admin API and pages answer any loopback
// peer, the proxy is one, so an SDK under test could otherwise read every record or move the clock.
// It serves the interface under the base path only, records requests at the wire's own level (raw
// header lines, requests Node's parser refuses), and its TLS listener lets nothing through a
// handshake that checks the certificate.
import { Agent, request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileReference, paramsOf, wireBodyOf } from '../src/http/client/params.js';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { untrustedCertificate } from '../src/http/client/certificate.js';
import { BASE_PATH, forwardable } from '../src/http/client/proxy.js';
import { startClientService, type ClientService } from '../src/http/client/service.js';
import { judgeWire, type WireContext } from '../src/http/client/wire.js';
import { signatureHeaders } from '../src/http/forgery.js';

/** What came back for a request: status, headers, the body's chunks as they arrived, or the connection closed with no answer. */
interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  chunks: Buffer[];
  body: string;
}

/**
 * One request with its target exactly as given (no URL normalisation) under `base` (an origin, or
 * the base URL with its path): status, headers, chunks and body.
 */
function raw(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> | string[] = {},
  body?: Buffer,
  tls?: { rejectUnauthorized: boolean },
): Promise<Raw> {
  const u = new URL(base);
  const path = `${u.pathname === '/' ? '' : u.pathname}${target}`;
  const send = tls ? httpsRequest : request;
  return new Promise((resolve, reject) => {
    const req = send({ hostname: u.hostname, port: u.port, method, path, agent: false, headers, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What the wire's judge needs, for this service. */
const ctxOf = (service: ClientService): WireContext => ({
  me: service.me,
  toleranceSeconds: 5,
  zone: 'UTC',
  sensitive: service.sensitive,
});

describe("client mode's proxy", () => {
  let service: ClientService;
  beforeAll(async () => {
    service = await startClientService(5, 10_000);
  });
  afterAll(async () => {
    await service.close();
  });

  it.each([
    ['GET', '/_sandbox/transactions'],
    ['POST', '/_sandbox/clock/advance'],
    ['POST', '/_sandbox/reset'],
    ['GET', '/_sandbox/'],
    ['GET', '/'],
    ['GET', '/v2/merchants/../../_sandbox/transactions'],
    ['GET', '/v2/merchants/%2e%2e/%2E%2E/_sandbox/transactions'],
    ['GET', '/v2/merchants/payins/%5Fsandbox'],
    ['GET', '/followed-redirect/_sandbox/transactions'],
    ['GET', '/card-proxy/v1/push/../../../_sandbox/transactions'],
  ])('refuses %s %s (403, logged), never reaching the sandbox', async (method, target) => {
    service.proxy.clear();
    const a = await raw(service.baseUrl, method, target);
    expect(a.status).toBe(403);
    expect(a.body).toContain('not an address of the interface');
    expect(a.body).not.toContain('m_conformance');
    expect(service.proxy.log.map((ex) => [ex.target, ex.action, ex.upstream])).toEqual([[target, 'refuse', null]]);
  });

  it('serves nothing outside the base path and the card proxy: 404, logged, never reaching the sandbox', async () => {
    const origin = new URL(service.baseUrl).origin;
    for (const target of ['/v2/merchants/payins/pi_none', '/_sandbox/transactions', '/gateway/v2/merchants/payins/pi_none']) {
      service.proxy.clear();
      const a = await raw(origin, 'GET', target);
      expect(a.status).toBe(404);
      expect(service.proxy.log.map((ex) => [ex.rawTarget, ex.action, ex.upstream])).toEqual([[target, 'outside_base', null]]);
    }
  });

  it("forwards the interface's addresses: the sandbox answers a lookup of no record with its own 404", async () => {
    service.proxy.clear();
    const a = await raw(service.baseUrl, 'GET', '/v2/merchants/payins/pi_none');
    expect(a.status).toBe(401); // unsigned: the sandbox itself refused it
    expect(service.proxy.log[0]!.upstream?.status).toBe(401);
  });

  it('reads a target as the sandbox would: only the service paths pass', () => {
    expect(forwardable('/v2/merchants/payins/?reference_id=a%20b')).toBe(true);
    expect(forwardable('/v1/merchants/payins/')).toBe(true);
    expect(forwardable('/card-proxy/v1/push/tok_1/')).toBe(true);
    expect(forwardable('/v2/merchants/payins/.')).toBe(false);
    expect(forwardable('/v2/merchants/payins/..%5C_x')).toBe(false);
    expect(forwardable('/V2/merchants/payins/')).toBe(false);
    expect(forwardable('//_sandbox/transactions')).toBe(false);
  });

  /** A create signed now, or with the x-timestamp given (epoch seconds). */
  const create = (reference: string, timestamp = Math.floor(Date.now() / 1000)) => {
    const body = wireBodyOf(paramsOf('payin', 'proxy', reference));
    const url = `${service.baseUrl}/v2/merchants/payins/`;
    const headers = { ...signatureHeaders(service.me, { method: 'POST', url, body }, timestamp), 'content-type': 'application/json' };
    return raw(service.baseUrl, 'POST', '/v2/merchants/payins/', headers, body).catch(() => null);
  };

  it('holds a create to the end of the tolerance counted from its arrival, when its x-timestamp is hours ahead: never on a time the SDK chose', async () => {
    // A naive UTC conversion in St John's: 3 h 30 min ahead. Held until then, the case would last hours.
    service.proxy.clear([{ on: 'create', action: { kind: 'commit_at_deadline', toleranceSeconds: 5, lagMs: 0 } }], 60_000);
    const reference = hostileReference('proxy', 'ahead', 1);
    const a = await create(reference, Math.floor(Date.now() / 1000) + 12_600);
    await service.proxy.settle();
    // Then handled: the sandbox refuses it as expired, and the SDK gets that.
    expect(a?.status).toBe(401);
    const [ex] = service.proxy.log;
    expect(ex!.upstream?.status).toBe(401);
    expect(ex!.deliveredAt! - ex!.at).toBeLessThan(30_000);
    // Nothing was created, so nothing stays hidden: a lookup by its reference reaches the sandbox.
    const lookup = lookupOf(reference);
    expect((await raw(service.baseUrl, 'GET', lookup.target, lookup.headers)).status).toBe(404);
    expect(service.proxy.log[1]!.upstream?.status).toBe(404);
  }, 40_000);

  it("hides a held create's record from the moment it is sent on: a lookup handled while the sandbox handles the create misses it, never reaching the sandbox", async () => {
    // A loaded machine runs the proxy late: the hold's end and a lookup that arrived meanwhile come
    // in one turn of its loop. Here the loop is held past the hold's end with the lookup's bytes
    // waiting in the proxy's socket: the hold's timer runs first (timers before I/O) and sends the
    // create on, then the lookup is read. Let through, it would reach the sandbox with the create.
    const reference = hostileReference('proxy', 'hidden', 6);
    // An x-timestamp 3 to 4 s back (tolerance 5): held until 200 ms before its tolerance ends, 1.3
    // to 2.3 s from now, room for the create to arrive first however loaded the machine.
    const timestamp = Math.ceil((Date.now() + 1300 - 4800) / 1000);
    const releasedAt = timestamp * 1000 + 4800;
    service.proxy.clear([{ on: 'create', count: 1, action: { kind: 'commit_at_deadline', toleranceSeconds: 5, lagMs: 2000 } }], 60_000);
    const created = create(reference, timestamp);
    const u = new URL(service.baseUrl);
    const socket = connect(Number(u.port), u.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const { target, headers } = lookupOf(reference);
    const head = [`GET ${u.pathname}${target} HTTP/1.1`, `host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    while (service.proxy.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, releasedAt - 100 - Date.now()));
    expect(service.proxy.log.map((ex) => [ex.route.kind, ex.upstream])).toEqual([['create', null]]); // still held
    // From the check phase: the next turn of the loop begins with its timers.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        socket.write(`${head.join('\r\n')}\r\n\r\n`);
        while (Date.now() < releasedAt + 100); // the loop held, as a loaded machine holds it
        resolve();
      }),
    );
    await closed;
    expect(await created).toBeNull(); // its answer lost, as the case means
    await service.proxy.settle();
    expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 404 /);
    expect(service.proxy.log.map((ex) => [ex.route.kind, ex.upstream?.status ?? null, ex.delivered?.kind])).toEqual([
      ['create', 200, 'dropped'],
      ['lookup-ref', null, 'answer'],
    ]);
  }, 40_000);

  it('applies a rule that outlasts a moment until enough requests from that moment on have taken it, however late they come', async () => {
    const page = { kind: 'answer', status: 404, contentType: 'text/html', body: '<html>404</html>' } as const;
    const rules = (secondsAfterCreate: number) => [{ on: 'lookup-ref' as const, outlasts: { secondsAfterCreate, times: 2 }, action: page }];
    const lookups = async (reference: string, n: number) => {
      const got: number[] = [];
      for (let i = 0; i < n; i++) {
        const { target, headers } = lookupOf(reference);
        await raw(service.baseUrl, 'GET', target, headers);
        got.push(service.proxy.log.at(-1)!.upstream?.status ?? 0);
      }
      return got; // 0: the proxy's page, else the sandbox's status
    };
    const [early, late] = [hostileReference('proxy', 'outlasts', 7), hostileReference('proxy', 'outlasts', 8)];
    // Before any create it does not apply.
    service.proxy.clear(rules(60), 60_000);
    expect(await lookups(early, 1)).toEqual([404]);
    // The moment a minute after the create: every lookup before it gets the page.
    expect((await create(early))?.status).toBe(200);
    expect(await lookups(early, 3)).toEqual([0, 0, 0]);
    // A create 4 s back (tolerance 5), the moment 3 s after it, past: two more pages and the record is found.
    service.proxy.clear(rules(3), 60_000);
    expect((await create(late, Math.floor(Date.now() / 1000) - 4))?.status).toBe(200);
    expect(await lookups(late, 3)).toEqual([0, 0, 200]);
  }, 40_000);

  it("bounds every hold by the case's own limit, and settle() with it", async () => {
    service.proxy.clear([{ on: 'create', action: { kind: 'late_commit', ms: 600_000 } }], 1000);
    const answered = create(hostileReference('proxy', 'held', 2));
    await service.proxy.settle();
    expect((await answered)?.status).toBe(200);
    expect(service.proxy.log[0]!.upstream?.status).toBe(200);
  }, 40_000);

  it('trickles an answer: its head at once, its body in pieces, delivered only if the SDK waited for the last one', async () => {
    service.proxy.clear();
    const reference = hostileReference('proxy', 'trickle', 4);
    expect((await create(reference))?.status).toBe(200);
    const target = `/v2/merchants/payins/?reference_id=${encodeURIComponent(reference)}`;
    const signed = () =>
      signatureHeaders(
        service.me,
        { method: 'GET', url: `${service.baseUrl}${target}`, body: Buffer.alloc(0) },
        Math.floor(Date.now() / 1000),
      );
    const trickle = [{ on: 'lookup-ref' as const, action: { kind: 'trickle' as const, pieces: 5, pauseMs: 40 } }];
    // Waited for: the whole answer, with its Content-Length, in pieces.
    service.proxy.clear(trickle, 60_000);
    const a = await raw(service.baseUrl, 'GET', target, signed());
    await service.proxy.settle();
    expect(a.status).toBe(200);
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body)));
    expect(a.chunks.length).toBeGreaterThan(1);
    const [whole] = service.proxy.log;
    expect(Buffer.concat(a.chunks).equals(whole!.upstream!.body)).toBe(true);
    expect(whole!.delivered).toEqual({ kind: 'answer', status: 200 });
    expect(whole!.deliveredAt! - whole!.at).toBeGreaterThanOrEqual(5 * 40 - 10);
    // Given up after the first piece: cut off, and nothing more written to it.
    service.proxy.clear(trickle, 60_000);
    const u = new URL(service.baseUrl);
    await new Promise<void>((resolve) => {
      const req = request(
        { hostname: u.hostname, port: u.port, method: 'GET', path: `${u.pathname}${target}`, agent: false, headers: signed() },
        (res) => {
          res.once('data', () => req.destroy());
        },
      );
      req.on('error', () => {});
      req.on('close', () => resolve());
      req.end();
    });
    await service.proxy.settle();
    expect(service.proxy.log[0]!.delivered).toEqual({ kind: 'truncated' });
  });

  it('answers chunked with every multi-byte UTF-8 character split across two chunks, the bytes those the sandbox sent', async () => {
    service.proxy.clear();
    const reference = hostileReference('proxy', 'split', 3);
    expect((await create(reference))?.status).toBe(200);
    service.proxy.clear([{ on: 'lookup-ref', action: { kind: 'split_utf8' } }], 60_000);
    const target = `/v2/merchants/payins/?reference_id=${encodeURIComponent(reference)}`;
    const url = `${service.baseUrl}${target}`;
    const a = await raw(
      service.baseUrl,
      'GET',
      target,
      signatureHeaders(service.me, { method: 'GET', url, body: Buffer.alloc(0) }, Math.floor(Date.now() / 1000)),
    );
    await service.proxy.settle();
    expect(a.status).toBe(200);
    expect(a.headers['content-length']).toBeUndefined();
    expect(a.headers['transfer-encoding']).toBe('chunked');
    expect(Buffer.concat(a.chunks).equals(service.proxy.log[0]!.upstream!.body)).toBe(true);
    expect((JSON.parse(a.body) as { reference_id: string }).reference_id).toBe(reference);
    // Decoded chunk by chunk, "ä" and "€" are lost: each arrived in two pieces.
    const perChunk = a.chunks.map((c) => c.toString('utf8')).join('');
    expect(perChunk).toContain('\ufffd');
    expect(perChunk).not.toContain('ä');
    expect(perChunk).not.toContain('€');
  });

  it('forwards a create signed for the URL called (base path included), and refuses one signed without the base path', async () => {
    service.proxy.clear();
    expect((await create(hostileReference('proxy', 'signed', 4)))?.status).toBe(200);
    const body = wireBodyOf(paramsOf('payin', 'proxy', hostileReference('proxy', 'unsigned', 5)));
    const origin = new URL(service.baseUrl).origin;
    // Signed as the sandbox behind would check it, were it not for the base path: still refused.
    const headers = {
      ...signatureHeaders(service.me, { method: 'POST', url: `${origin}/v2/merchants/payins/`, body }, Math.floor(Date.now() / 1000)),
      'content-type': 'application/json',
    };
    expect((await raw(service.baseUrl, 'POST', '/v2/merchants/payins/', headers, body)).status).toBe(401);
  });

  it('records every header line as sent, and forwards them so: two Content-Type lines reach the sandbox, which refuses them', async () => {
    service.proxy.clear();
    const body = wireBodyOf(paramsOf('payin', 'proxy', hostileReference('proxy', 'twice', 6)));
    const url = `${service.baseUrl}/v2/merchants/payins/`;
    const signed = signatureHeaders(service.me, { method: 'POST', url, body }, Math.floor(Date.now() / 1000));
    // As a flat list, Node sends each line as given (and adds no Host of its own).
    const host = new URL(url).host;
    const lines = ['Host', host, ...Object.entries(signed).flat(), 'Content-Type', 'application/json', 'content-type', 'text/plain'];
    const a = await raw(service.baseUrl, 'POST', '/v2/merchants/payins/', lines, body);
    expect(a.status).toBe(400);
    expect(a.body).toContain('duplicate_header');
    const [ex] = service.proxy.log;
    expect(ex!.rawHeaders.filter(([n]) => n.toLowerCase() === 'content-type')).toEqual([
      ['Content-Type', 'application/json'],
      ['content-type', 'text/plain'],
    ]);
  });

  it("logs a request Node's parser refuses (two Content-Length lines) with its raw head, and answers it 400", async () => {
    service.proxy.clear();
    const { port } = new URL(service.baseUrl);
    const request = `POST ${BASE_PATH}/v2/merchants/payins/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}`;
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      socket.on('data', (d) => (got += d.toString('latin1')));
      socket.on('close', () => resolve(got));
      socket.on('error', () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const [ex] = service.proxy.log;
    expect(ex).toMatchObject({ method: 'POST', target: '/v2/merchants/payins/', action: 'parser_refused', upstream: null });
    expect(ex!.refused).toMatch(/Content-Length/);
    expect(ex!.rawHeaders.filter(([n]) => n === 'Content-Length')).toHaveLength(2);
    const op = { resource: 'payins' as const, create: { version: 'v2' as const, params: {} }, reference: 'r' };
    expect(judgeWire(service.proxy.log, op, ctxOf(service)).map((f) => f.mistake)).toEqual(['header_repeated']);
  });

  it('lets nothing through its TLS listener when the certificate is checked; a client that does not check gets through, logged as such', async () => {
    service.proxy.clear();
    const target = '/v2/merchants/payins/pi_none';
    await expect(raw(service.tlsBaseUrl, 'GET', target, {}, undefined, { rejectUnauthorized: true })).rejects.toThrow(/self-signed/);
    expect(service.proxy.log).toEqual([]);
    const a = await raw(service.tlsBaseUrl, 'GET', target, {}, undefined, { rejectUnauthorized: false });
    expect(a.status).toBe(401); // unsigned: the sandbox refused it, as over http
    expect(service.proxy.log.map((ex) => [ex.origin, ex.target])).toEqual([[new URL(service.tlsBaseUrl).origin, target]]);
  });

  it('logs plain HTTP sent to its TLS listener, unread, and answers nothing', async () => {
    service.proxy.clear();
    const tls = new URL(service.tlsBaseUrl);
    await expect(raw(`http://${tls.host}${tls.pathname}`, 'GET', '/v2/merchants/payins/pi_none')).rejects.toThrow();
    await service.proxy.settle();
    expect(service.proxy.log.map((ex) => [ex.origin, ex.action, ex.upstream])).toEqual([[tls.origin, 'plaintext_on_tls', null]]);
    expect(judgeWire(service.proxy.log, { resource: 'payins', id: 'pi_none' }, ctxOf(service)).map((f) => f.mistake)).toEqual([
      'tls_not_used',
    ]);
  });

  /** A signed lookup by reference: its target, and its headers signed now. */
  const lookupOf = (reference: string) => {
    const target = `/v2/merchants/payins/?reference_id=${encodeURIComponent(reference)}`;
    const url = `${service.baseUrl}${target}`;
    return { target, headers: signatureHeaders(service.me, { method: 'GET', url, body: Buffer.alloc(0) }, Math.floor(Date.now() / 1000)) };
  };

  it('writes a raw answer byte for byte: its header lines as given (case, order, spacing), the body, then the close', async () => {
    service.proxy.clear();
    const reference = hostileReference('proxy', 'raw', 4);
    expect((await create(reference))?.status).toBe(200);
    const lines = ['Content-Type:application/json', 'X-Request-Id: 7d0c5e1a', 'connection: close'];
    service.proxy.clear([{ on: 'lookup-ref', action: { kind: 'raw', head: () => lines } }], 60_000);
    const { target, headers } = lookupOf(reference);
    // A socket, not a client library: what arrives is exactly what was written.
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
      const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(`GET ${BASE_PATH}${target} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head.join('')}\r\n`);
    });
    await service.proxy.settle();
    const upstream = service.proxy.log[0]!.upstream!.body;
    expect(bytes.equals(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${lines.join('\r\n')}\r\n\r\n`), upstream]))).toBe(true);
    expect((JSON.parse(upstream.toString('utf8')) as { reference_id: string }).reference_id).toBe(reference);
  });

  it('closes each connection after its answer but where a case keeps it alive; closes a kept-alive one under the next request, never a new one', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    /** A request on `agent`: its status and Connection header, or the error it ended with. */
    const on = (a: Agent | false, method: string, target: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<{ status: number; connection: string | undefined } | { error: string }>((resolve) => {
        const u = new URL(service.baseUrl);
        const req = request({ hostname: u.hostname, port: u.port, method, path: `${u.pathname}${target}`, agent: a, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
        req.end(body);
      });
    try {
      const reference = hostileReference('proxy', 'kept', 5);
      const body = wireBodyOf(paramsOf('payin', 'proxy', reference));
      const url = `${service.baseUrl}/v2/merchants/payins/`;
      const signed = {
        ...signatureHeaders(service.me, { method: 'POST', url, body }, Math.floor(Date.now() / 1000)),
        'content-type': 'application/json',
      };
      service.proxy.clear([{ on: 'create', action: { kind: 'keep_alive' } }], 60_000);
      expect(await on(agent, 'POST', '/v2/merchants/payins/', signed, body)).toEqual({ status: 200, connection: 'keep-alive' });
      service.proxy.clear([{ on: 'lookup-ref', action: { kind: 'close_kept_alive' } }], 60_000);
      const lookup = lookupOf(reference);
      expect(await on(agent, 'GET', lookup.target, lookup.headers)).toEqual({ error: 'ECONNRESET' });
      // On a new connection the same rule lets it through, and the answer closes its connection.
      expect(await on(false, 'GET', lookup.target, lookupOf(reference).headers)).toEqual({ status: 200, connection: 'close' });
      await service.proxy.settle();
      expect(service.proxy.log.map((ex) => [ex.reused, ex.delivered?.kind, ex.upstream?.status ?? null])).toEqual([
        [true, 'dropped', null],
        [false, 'answer', 200],
      ]);
    } finally {
      agent.destroy();
    }
  });
});

describe("the TLS listener's certificate, made at run time", () => {
  it('is a self-signed X.509 v3 certificate for 127.0.0.1 and localhost, valid now for a day, with its own fresh key', () => {
    const now = new Date();
    const { cert, key } = untrustedCertificate(now);
    const x = new X509Certificate(cert);
    expect(x.subject).toBe(x.issuer);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x.checkHost('localhost')).toBe('localhost');
    expect(x.ca).toBe(false);
    expect(Date.parse(x.validFrom)).toBeLessThan(now.getTime());
    expect(Date.parse(x.validTo)).toBeGreaterThan(now.getTime() + 3_600_000);
    expect(x.checkPrivateKey(createPrivateKey(key))).toBe(true);
    const other = untrustedCertificate(now);
    expect(
      createPublicKey(other.key)
        .export({ type: 'spki', format: 'der' })
        .equals(x.publicKey.export({ type: 'spki', format: 'der' })),
    ).toBe(false);
  });
});
