// A handler with an unusable configuration fails when it is created, not on the first webhook
// hours later, and its error never carries the secret.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { webhookHandler } from '../src/fetch/index.js';

const ok = { merchantId: 'm_1', secret: 'sk_live_never_shown', url: 'https://shop.example/webhooks/pay', handler: () => {} };

describe('webhookHandler configuration', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no handler', { handler: undefined }, /handler must be a function/],
    ['neither url nor trustProxyHeaders', { url: undefined }, /give url .* or trustProxyHeaders/],
    ['both url and trustProxyHeaders', { trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x-forwarded-host' } }, /not both/],
    ['a relative url', { url: '/webhooks/pay' }, /url must be the full URL/],
    ['an empty secret', { secret: '' }, /secret must not be empty/],
    ['no secret', { secret: undefined }, /secret .*is required/],
    ['an empty merchant id', { merchantId: '' }, /merchantId must not be empty/],
    [
      'a url with a space',
      { url: 'https://shop.example/hooks pay?token=tok_never_shown' },
      /url .*must not contain spaces or control characters \(one is at position 26\)/,
    ],
    ['a url of another scheme', { url: 'ftp://shop.example/?token=tok_never_shown' }, /url .*must start with http:\/\/ or https:\/\//],
    ['secrets that are not a list', { secret: undefined, secrets: 'sk_live_never_shown' }, /secrets must be a non-empty list/],
    ['an empty secret in the list', { secret: undefined, secrets: ['sk_live_never_shown', ''] }, /secrets\[1\] must not be empty/],
    ['a negative tolerance', { toleranceSeconds: -1 }, /toleranceSeconds must be a non-negative number/],
    ['a clock given as a function', { clock: Date.now }, /clock must be a Clock/],
    ['a clock without track', { clock: { now: Date.now, sleep: () => {}, alarm: () => {} } }, /clock\.track must be a function/],
    ['a store without release', { store: { claim: () => 'claimed', complete: () => {} } }, /store must be a DeliveryStore/],
    ['a zero lease', { processingLeaseMs: 0 }, /processingLeaseMs must be a positive whole number/],
    ['a fractional body limit', { maxBodyBytes: 1.5 }, /maxBodyBytes must be a positive whole number/],
    ['an onRefused that is not a function', { onRefused: 'console' }, /onRefused must be a function/],
    [
      'a proxy header name with a space',
      { url: undefined, trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x forwarded host' } },
      /trustProxyHeaders\.host must be a header name/,
    ],
  ];
  it.each(cases)('refuses %s', (_name, change, message) => {
    const make = () => webhookHandler({ ...ok, ...change } as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
    try {
      make();
    } catch (error) {
      expect(inspect(error)).not.toContain('sk_live_never_shown');
      expect(inspect(error)).not.toContain('tok_never_shown');
    }
  });

  it('accepts trustProxyHeaders in place of url', () => {
    const { url: _, ...rest } = ok;
    expect(typeof webhookHandler({ ...rest, trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x-forwarded-host' } })).toBe(
      'function',
    );
  });
});
