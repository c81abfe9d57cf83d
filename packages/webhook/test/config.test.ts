// A handler with an unusable configuration fails when it is created, not on the first webhook
// hours later, and its error never carries the secret.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../src/index.js';

const ok = { merchantId: 'm_1', secret: 'sk_live_never_shown', url: 'https://shop.example/webhooks/pay', handler: () => {} };

describe('createWebhookHandler configuration', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['no handler', { handler: undefined }, /handler must be a function/],
    ['neither url nor trustProxyHeaders', { url: undefined }, /give url .* or trustProxyHeaders/],
    ['both url and trustProxyHeaders', { trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x-forwarded-host' } }, /not both/],
    ['a relative url', { url: '/webhooks/pay' }, /url must be the full URL/],
    ['an empty secret', { secret: '' }, /secret must not be empty/],
    ['no secret', { secret: undefined }, /secret .*is required/],
    ['an empty merchant id', { merchantId: '' }, /merchantId must not be empty/],
  ];
  it.each(cases)('refuses %s', (_name, change, message) => {
    const make = () => createWebhookHandler({ ...ok, ...change } as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
    try {
      make();
    } catch (error) {
      expect(inspect(error)).not.toContain('sk_live_never_shown');
    }
  });

  it('accepts trustProxyHeaders in place of url', () => {
    const { url: _, ...rest } = ok;
    expect(typeof createWebhookHandler({ ...rest, trustProxyHeaders: { proto: 'x-forwarded-proto', host: 'x-forwarded-host' } })).toBe('function');
  });
});
