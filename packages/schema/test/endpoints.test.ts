// The table of endpoints: the interface's eight, with their exact trailing slashes, URLs built from
// them, paths matched back to them, and the OpenAPI document derived from them (nothing more, nothing less).
import { describe, expect, it } from 'vitest';
import { BODY_SCHEMAS, endpointPath, ENDPOINTS, endpointsAt, endpointUrl, openApiDocument, takesQuery } from '../src/index.js';

const endpoints = Object.values(ENDPOINTS);

describe('ENDPOINTS', () => {
  it("are the interface's eight, written as called (the interface's endpoint table, rows 1 to 8)", () => {
    expect(endpoints.map((e) => `${e.method} {${e.base}}${e.path}`)).toEqual([
      'POST {base_url}/v2/merchants/payins/',
      'GET {base_url}/v2/merchants/payins/{id}',
      'GET {base_url}/v2/merchants/payins/?reference_id={reference_id}',
      'POST {base_url}/v2/merchants/payouts/',
      'GET {base_url}/v2/merchants/payouts/{id}',
      'GET {base_url}/v2/merchants/payouts/?reference_id={reference_id}',
      'POST {base_url}/v1/merchants/payins/',
      'POST {card_proxy_url}/v1/push/{token}/',
    ]);
    for (const e of endpoints) {
      if (e.method === 'GET') expect(e.request).toBeUndefined();
      else expect(Object.keys(BODY_SCHEMAS)).toContain(e.request);
      expect(e.signature).toBe(e.base === 'card_proxy_url' ? 'x-simplified-signature' : 'x-signature');
    }
  });

  it("build URLs with the caller's encoding, and refuse a missing parameter", () => {
    const encode = (v: string) => encodeURIComponent(v);
    expect(endpointUrl('https://api.pay.example', ENDPOINTS.createPayin, {}, encode)).toBe('https://api.pay.example/v2/merchants/payins/');
    expect(endpointUrl('https://api.pay.example', ENDPOINTS.getPayout, { id: 'po 1/2' }, encode)).toBe(
      'https://api.pay.example/v2/merchants/payouts/po%201%2F2',
    );
    expect(endpointUrl('https://api.pay.example', ENDPOINTS.getPayinByReference, { reference_id: 'a&b' }, encode)).toBe(
      'https://api.pay.example/v2/merchants/payins/?reference_id=a%26b',
    );
    expect(endpointUrl('https://cards.pay.example', ENDPOINTS.pushCard, { token: 'ct_1' }, encode)).toBe(
      'https://cards.pay.example/v1/push/ct_1/',
    );
    expect(() => endpointUrl('https://api.pay.example', ENDPOINTS.getPayin, {}, encode)).toThrow(/id/);
  });

  it.each([
    ['/v2/merchants/payins/', 'base_url', ['createPayin', 'getPayinByReference'], {}],
    ['/v2/merchants/payins/pi_1', 'base_url', ['getPayin'], { id: 'pi_1' }],
    ['/v2/merchants/payouts/po%2F1', 'base_url', ['getPayout'], { id: 'po%2F1' }],
    ['/v1/merchants/payins/', 'base_url', ['createPayinLegacy'], {}],
    ['/v1/push/ct_1/', 'card_proxy_url', ['pushCard'], { token: 'ct_1' }],
    ['/v2/merchants/payins', 'base_url', [], {}],
    ['/v2/merchants/payins/pi_1/', 'base_url', [], {}],
    ['/v1/push/ct_1', 'card_proxy_url', [], {}],
    ['/v1/push/ct_1/', 'base_url', [], {}],
    ['/v2/merchants/payins//', 'base_url', [], {}],
  ] as const)('match %s (under %s) to %j', (path, base, operations, params) => {
    const found = endpointsAt(path, base);
    expect(found.map((m) => m.endpoint.operation)).toEqual(operations);
    for (const m of found) if (!takesQuery(m.endpoint) && m.endpoint.method === 'GET') expect(m.params).toEqual(params);
  });

  it('are what the OpenAPI document describes: one operation each, under the path without its query', () => {
    const document = openApiDocument() as { paths: Record<string, Record<string, { operationId?: string }>> };
    const described = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => method === 'get' || method === 'post')
        .map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(described.sort()).toEqual(endpoints.map((e) => `${e.method} ${endpointPath(e)} ${e.operation}`).sort());
  });
});
