// verifyWebhook, verifyWebhookOrThrow and verifyWebhookRequest against the golden vectors and the
// mistakes merchants make (parsed bodies, near-miss URLs and secrets, compressed or consumed
// bodies), with the status the handlers answer for each refusal.
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clockAt } from './clock-at.js';
import { refusalStatus, verifyWebhook, verifyWebhookOrThrow, verifyWebhookRequest, WebhookVerificationError } from '../src/index.js';
import type { WebhookResult } from '../src/index.js';
import { noNearMiss } from './no-near-miss.js';
import { bodyOf, isPayload, vectors } from './vectors.js';

const merchantId = 'm_12345';
const secret = 'sk_test_webhooks_1';
const url = 'https://shop.example/webhooks/pay/';
const ts = 1732200000;
const payload = '{"id":"pi_1","reference_id":"order-1","status":"executed","fee":{"amount":0.3,"currency":"EUR"}}';
const sign = (body: string | Buffer, options: { url?: string; secret?: string; merchant?: string; timestamp?: number } = {}) => ({
  'x-merchant-id': options.merchant ?? merchantId,
  'x-timestamp': String(options.timestamp ?? ts),
  'x-signature': createHmac('sha256', options.secret ?? secret)
    .update(`${options.merchant ?? merchantId}${options.timestamp ?? ts}POST${options.url ?? url}`)
    .update(body)
    .digest('hex'),
});
/** A clock stopped at unix second `s` (clocks are unix milliseconds, like Date.now). */
const at = (s: number) => clockAt(() => s * 1000);
const base = { merchantId, secret, url, clock: at(ts + 3) };
/** The verdict with the status the handlers answer for it (the pipeline's policy, not the verifier's). */
const withStatus = (r: WebhookResult) => (r.ok ? r : { ...r, status: refusalStatus(r.reason) });

describe('verifyWebhook on the golden vectors', () => {
  it.each(vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const result = verifyWebhook({
      merchantId: v.input.merchant_id,
      secret: v.input.secret,
      url: v.input.url,
      headers: v.input.headers,
      body: bodyOf(v),
      clock: at(Number(v.input.now)),
    });
    if (v.expected.verdict === 'invalid') {
      expect(withStatus(result), v.description).toMatchObject({ ok: false, reason: v.expected.reason, status: 401 });
    } else if (v.expected.verdict === 'valid') {
      // The signature is accepted; the body then decides between an event and a 400.
      if (isPayload(v)) expect(result, v.description).toMatchObject({ ok: true });
      else expect(withStatus(result), v.description).toMatchObject({ ok: false, status: 400 });
    } else {
      // Either verdict passes the suite; @pay/sign's documented choice is to accept upper case.
      expect(result, v.description).toMatchObject({ ok: true });
    }
  });
});

describe('verifyWebhook', () => {
  it('returns the payload with the fields the service added kept', () => {
    const result = verifyWebhook({ ...base, headers: sign(payload), body: payload });
    expect(result).toEqual({ ok: true, secretIndex: 0, event: JSON.parse(payload) });
  });

  it('takes the body as a string, a Buffer, a Uint8Array or an ArrayBuffer', () => {
    const bytes = new TextEncoder().encode(payload);
    for (const body of [payload, Buffer.from(payload), bytes, bytes.buffer, new DataView(bytes.buffer)]) {
      expect(verifyWebhook({ ...base, headers: sign(payload), body }).ok).toBe(true);
    }
  });

  it('refuses a parsed body with advice, as a setup error (500) rather than a bad signature', () => {
    const result = verifyWebhook({ ...base, headers: sign(payload), body: JSON.parse(payload) });
    expect(withStatus(result)).toMatchObject({ ok: false, reason: 'parsed_body', status: 500 });
    expect(!result.ok && result.message).toMatch(/already parsed.*express\.json\(\).*verifyWebhookRequest/s);
    expect(verifyWebhook({ ...base, headers: sign(payload), body: undefined })).toMatchObject({ reason: 'parsed_body' });
  });

  it('answers a correctly signed body that is not JSON, or not a payload, with 400 and its own reason', () => {
    const notJson = 'status=executed';
    expect(withStatus(verifyWebhook({ ...base, headers: sign(notJson), body: notJson }))).toMatchObject({
      reason: 'invalid_json',
      status: 400,
    });
    const badUtf8 = Buffer.from([0x7b, 0xff, 0x7d]);
    expect(verifyWebhook({ ...base, headers: sign(badUtf8), body: badUtf8 })).toMatchObject({ reason: 'invalid_json' });
    for (const body of ['[]', 'null', '"pi_1"', '{"id":1,"status":"new"}', '{"reference_id":"x"}']) {
      const result = verifyWebhook({ ...base, headers: sign(body), body });
      expect(withStatus(result), body).toMatchObject({ ok: false, reason: 'invalid_payload', status: 400 });
    }
    const result = verifyWebhook({ ...base, headers: sign('{"id":1}'), body: '{"id":1}' });
    expect(!result.ok && result.message).toMatch(/id: .*status: /);
  });

  it('accepts a status it has never seen (the set is open)', () => {
    const body = '{"id":"po_1","reference_id":"r","status":"partially_refunded"}';
    expect(verifyWebhook({ ...base, headers: sign(body), body })).toMatchObject({ ok: true, event: { status: 'partially_refunded' } });
  });

  it('says which secret matched while keys rotate', () => {
    const result = verifyWebhook({ ...base, secret: undefined, secrets: ['sk_new', secret], headers: sign(payload), body: payload });
    expect(result).toMatchObject({ ok: true, secretIndex: 1 });
  });

  describe('names the near miss of a bad signature, for logs', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['URL signed without the slash', { headers: sign(payload, { url: url.slice(0, -1) }) }, /without its trailing slash/],
      ['URL configured without the slash', { url: url.slice(0, -1), headers: sign(payload) }, /with a trailing slash/],
      ['http vs https', { headers: sign(payload, { url: url.replace('https', 'http') }) }, /http:\/\/ form/],
      ['query dropped', { url: `${url}?shop=7`, headers: sign(payload) }, /without its query string/],
      ['body re-serialised', { body: JSON.stringify(JSON.parse(payload), null, 2), headers: sign(payload) }, /re-serialised as minified/],
      ['secret with a newline', { secret: `${secret}\n`, headers: sign(payload) }, /surrounding whitespace/],
    ];
    it.each(cases)('%s', (_name, change, hint) => {
      const result = verifyWebhook({ ...base, body: payload, ...change } as never);
      expect(withStatus(result)).toMatchObject({ ok: false, reason: 'bad_signature', status: 401 });
      expect(!result.ok && result.hint).toMatch(hint);
      expect(inspect(result)).not.toContain(secret);
    });

    it('and, when nothing near matches, says the secret is the likeliest cause, without a word of it', () => {
      const result = verifyWebhook({ ...base, body: payload, headers: sign(payload, { secret: 'another' }) });
      expect(result).toMatchObject({ ok: false, reason: 'bad_signature' });
      const hint = !result.ok && result.hint;
      expect(hint).toMatch(noNearMiss(merchantId));
      expect(JSON.stringify(result)).not.toContain(base.secret);
      expect(JSON.stringify(result)).not.toContain('another');
    });
  });

  it('verifyWebhookOrThrow throws a coded error', () => {
    expect(verifyWebhookOrThrow({ ...base, headers: sign(payload), body: payload })).toEqual(JSON.parse(payload));
    try {
      verifyWebhookOrThrow({ ...base, headers: sign(payload), body: payload, clock: at(ts + 61) });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ code: 'expired' });
      expect(refusalStatus((error as WebhookVerificationError).code)).toBe(401);
    }
  });
});

describe('verifyWebhookRequest', () => {
  const request = (body: BodyInit, headers: Record<string, string>) =>
    new Request('http://10.0.0.7:8080/internal/hooks', { method: 'POST', body, headers });

  it('verifies the Request body against the configured URL, not request.url', async () => {
    expect(await verifyWebhookRequest(request(payload, sign(payload)), base)).toMatchObject({ ok: true });
  });

  it('refuses a compressed body, as every handler does, without reading it', async () => {
    const gzipped = request(payload, { ...sign(payload), 'content-encoding': 'gzip' });
    expect(await verifyWebhookRequest(gzipped, base)).toMatchObject({ ok: false, reason: 'unsupported_encoding' });
    expect(gzipped.bodyUsed).toBe(false);
    expect(refusalStatus('unsupported_encoding')).toBe(415);
    const identity = request(payload, { ...sign(payload), 'content-encoding': ' Identity ' });
    expect(await verifyWebhookRequest(identity, base)).toMatchObject({ ok: true });
  });

  it('refuses a Request whose body was already read, as a setup mistake', async () => {
    const read = request(payload, sign(payload));
    await read.text();
    expect(await verifyWebhookRequest(read, base)).toMatchObject({ ok: false, reason: 'parsed_body' });
  });

  it('refuses a body over the limit, declared or streamed', async () => {
    const big = 'x'.repeat(2048);
    expect(await verifyWebhookRequest(request(big, sign(big)), { ...base, maxBodyBytes: 1024 })).toMatchObject({
      reason: 'body_too_large',
    });
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = new Request('http://x/', { method: 'POST', body: stream, headers: sign(big), duplex: 'half' } as RequestInit);
    expect(await verifyWebhookRequest(streamed, { ...base, maxBodyBytes: 4096 })).toMatchObject({ reason: 'body_too_large' });
  });
});
