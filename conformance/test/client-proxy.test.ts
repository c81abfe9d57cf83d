// Client mode's proxy over real HTTP, in front of a real embedded sandbox: it forwards the
// interface's addresses and nothing else. The sandbox's admin API and pages answer any loopback
// peer, the proxy is one, so an SDK under test could otherwise read every record or move the clock.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardable } from '../src/http/client/proxy.js';
import { startClientService, type ClientService } from '../src/http/client/service.js';

/** One request with its target exactly as given (no URL normalisation): status and body. */
function raw(origin: string, method: string, target: string): Promise<{ status: number; body: string }> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, method, path: target, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

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
});
