// Whatever arrives, verifyWebhook answers with a verdict and a status, never a throw; and a
// correctly signed payload of any shape the service may send is accepted with its fields kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestWebhook, refusalStatus, verifyWebhook } from '../src/index.js';
import { clockAt } from './clock-at.js';

const config = { merchantId: 'm_1', secret: 'sk_test_prop', url: 'https://shop.example/webhooks/pay' };

describe('properties', () => {
  it('never throws, whatever the headers and body, and every refusal has a 4xx/5xx status and a message', () => {
    const headerValue = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }), fc.integer(), fc.constant(undefined));
    const headers = fc.record(
      { 'x-merchant-id': headerValue, 'x-timestamp': headerValue, 'x-signature': headerValue },
      { requiredKeys: [] },
    );
    const body = fc.oneof(fc.string(), fc.uint8Array(), fc.jsonValue(), fc.constant(undefined), fc.constant(null));
    fc.assert(
      fc.property(headers, body, (h, b) => {
        const result = verifyWebhook({ ...config, headers: h as never, body: b, clock: clockAt(() => 1732200000_000) });
        if (!result.ok) {
          expect(refusalStatus(result.reason)).toBeGreaterThanOrEqual(400);
          expect(result.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('accepts any correctly signed payload with an id and a status, keeping every field', () => {
    const payload = fc
      .record({ id: fc.string({ minLength: 1 }), status: fc.string({ minLength: 1 }), reference_id: fc.option(fc.string(), { nil: null }) })
      .chain((base) =>
        fc
          .dictionary(
            fc.string().filter((k) => !(k in base) && k !== '__proto__'),
            fc.jsonValue(),
          )
          .map((extra) => ({ ...extra, ...base })),
      );
    fc.assert(
      fc.property(payload, fc.integer({ min: -60, max: 60 }), (p, skew) => {
        const hook = createTestWebhook({ ...config, payload: p, timestamp: 1732200000 });
        const result = verifyWebhook({
          ...config,
          headers: hook.headers,
          body: hook.body,
          clock: clockAt(() => (1732200000 + skew) * 1000),
        });
        expect(result).toEqual({ ok: true, secretIndex: 0, event: JSON.parse(hook.body) });
      }),
      { numRuns: 300 },
    );
  });
});
