// Forged requests cost bounded work: the near-miss hint is worked out only when read, from a few
// bounded variants, never throws, never shows the URL's query, and a handler works one out at
// most once a second however many forged requests arrive. Signatures come from node:crypto here.
import { createHmac } from 'node:crypto';
import { DIAGNOSIS_BODY_LIMIT } from '@pay/sign';
import { describe, expect, it } from 'vitest';
import { noNearMiss } from './no-near-miss.js';
import type { WebhookFailure } from '../src/index.js';
import { webhookHandler } from '../src/fetch/index.js';
import { verifyWebhook } from '../src/index.js';
import { clockAt } from './clock-at.js';

const merchantId = 'm_12345';
const secret = 'sk_test_forged';
const url = 'https://shop.example/webhooks/pay?token=tok_do_not_log';
const ts = 1732200000;
const now = () => (ts + 1) * 1000;
const forged = { 'x-merchant-id': merchantId, 'x-timestamp': String(ts), 'x-signature': 'ab'.repeat(32) };
const signedFor = (signedUrl: string, body: string) => ({
  ...forged,
  'x-signature': createHmac('sha256', secret).update(`${merchantId}${ts}POST${signedUrl}${body}`).digest('hex'),
});
const payload = '{"id":"pi_1","reference_id":"order-1","status":"executed"}';

describe('a forged webhook', () => {
  const hostile: [string, string][] = [
    ["the review's 64 KB nested body", `${'['.repeat(4000)}${Array(28000).fill(0).join()}${']'.repeat(4000)}`],
    ['a nested body within the hint size limit', `${'['.repeat(2000)}${']'.repeat(2000)}`],
    ['a nested object body within the limit', `${'{"a":'.repeat(800)}1${'}'.repeat(800)}`],
    ['a body of 200 000 keys', `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":0`).join()}}`],
    ['a megabyte string', `{"id":"${'x'.repeat(1 << 20)}","status":"new"}`],
    ['invalid UTF-8', '\ud800\udfff\ud800'],
  ];
  it.each(hostile)('with %s is refused, and reading its hint neither throws nor echoes the body', (_name, body) => {
    const result = verifyWebhook({ merchantId, secret, url, clock: clockAt(now), headers: forged, body });
    expect(result).toMatchObject({ ok: false, reason: 'bad_signature' });
    const hint = !result.ok ? result.hint : 'unreachable';
    expect(hint === undefined || (typeof hint === 'string' && hint.length < 300)).toBe(true);
  });

  it('works out no hint until something reads it', () => {
    let reads = 0;
    const headers = {
      get(name: string) {
        reads++;
        return (forged as Record<string, string>)[name] ?? null;
      },
    };
    const result = verifyWebhook({ merchantId, secret, url, clock: clockAt(now), headers, body: payload });
    expect(result).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(reads).toBe(3); // the three signed headers, once
    expect(!result.ok && result.hint).toMatch(noNearMiss(merchantId)); // nothing near matches a random signature
    expect(reads).toBeGreaterThan(3); // the variants were tried only now
  });

  it('gives a hint that never throws, even when the headers start throwing once the request is gone', () => {
    let reads = 0;
    const headers = {
      get(name: string) {
        if (++reads > 3) throw new Error('headers of a finished request');
        return (forged as Record<string, string>)[name] ?? null;
      },
    };
    const result = verifyWebhook({ merchantId, secret, url, clock: clockAt(now), headers, body: payload });
    // The headers read as none once they throw: no variant matches, which the hint says.
    expect(!result.ok && result.hint).toMatch(noNearMiss(merchantId));
  });

  it('names the near miss without the query string of the configured URL', () => {
    const withSlash = url.replace('/pay?', '/pay/?');
    const result = verifyWebhook({ merchantId, secret, url, clock: clockAt(now), headers: signedFor(withSlash, payload), body: payload });
    expect(!result.ok && result.hint).toMatch(/trailing slash \(https:\/\/shop\.example\/webhooks\/pay\/\?…\)/);
    expect(JSON.stringify(result)).not.toContain('tok_do_not_log'); // toJSON includes the hint
    expect(JSON.stringify(result)).toContain('trailing slash');
  });

  it('gets no re-serialisation check past the size limit, only the cheap ones', () => {
    const big = JSON.stringify({ id: 'pi_1', status: 'new', note: 'x'.repeat(DIAGNOSIS_BODY_LIMIT) }); // the one limit of every diagnosis
    const pretty = JSON.stringify(JSON.parse(big), null, 2);
    const small = JSON.stringify(JSON.parse(payload), null, 2);
    const near = (body: string, signed: string) =>
      verifyWebhook({ merchantId, secret, url, clock: clockAt(now), headers: signedFor(url, signed), body });
    expect(near(small, payload)).toMatchObject({ hint: expect.stringMatching(/re-serialised as minified/) });
    const past = near(pretty, big);
    expect(!past.ok && past.hint).toBeUndefined();
  });
});

describe('a handler under a flood of forged requests', () => {
  it('works out at most one near-miss hint a second, and says so in the others', async () => {
    let clock = (ts + 1) * 1000;
    const failures: WebhookFailure[] = [];
    const hints: unknown[] = [];
    const receive = webhookHandler({
      merchantId,
      secret,
      url,
      clock: clockAt(() => clock),
      handler: () => {},
      onRefused: (f) => {
        failures.push(f);
        hints.push('hint' in f ? f.hint : undefined); // read when logged, as a log sink does
      },
    });
    const withSlash = url.replace('/pay?', '/pay/?');
    const send = () =>
      receive(new Request('http://127.0.0.1/webhooks/pay', { method: 'POST', headers: signedFor(withSlash, payload), body: payload }));
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(401);
    clock += 1000;
    expect((await send()).status).toBe(401);
    expect(hints[0]).toMatch(/trailing slash/);
    expect(hints[1]).toMatch(/at most once a second/);
    expect(hints[2]).toMatch(/at most once a second/);
    expect(hints[3]).toMatch(/trailing slash/);
    expect(failures.map((f) => f.status)).toEqual([401, 401, 401, 401]);
  });
});
