// Bounded everywhere: what a caller sends has a maximum length, the Node sender's address cache a
// maximum size (emptied on reset), and the terminal shows control characters and bidi overrides
// escaped. That a clock advance does not wait for slow receivers one after another is
// wall-deadlines.test.ts's.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TARGETS, nodeSender } from '../src/sender-node.js';
import { MAX_URL_LENGTH } from '@pay/schema';
import { payinBody, payinV1Body, payoutBody, post, raw, receiver, start } from './helpers.js';

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

// The limits are @pay/schema's (the one home of them): 2,048 characters for a URL (docs/design.md),
// 64 for method and language, 1,024 for a user agent; written out here as the expectation. Under
// .invalid: the sandbox fails a webhook there without a lookup, so no test sends a DNS query.
const url = (n: number) => `https://shop.invalid/${'a'.repeat(n - 21)}`;

describe("lengths the sandbox keeps: the schema's maximums, over HTTP", () => {
  it('MAX_URL_LENGTH is the documented 2,048', () => {
    expect(MAX_URL_LENGTH).toBe(2048);
    expect(url(2048)).toHaveLength(2048);
  });

  const redirects = (field: string, value: string) => ({
    redirect_urls: { success: 'https://shop.example/s', fail: 'https://shop.example/f', [field]: value },
  });
  it.each([
    ['payins', payinBody, 'webhook_url', (v: string) => ({ webhook_url: v })],
    ['payins', payinBody, 'redirect_urls.success', (v: string) => redirects('success', v)],
    ['payins', payinBody, 'redirect_urls.fail', (v: string) => redirects('fail', v)],
    ['payins', payinBody, 'redirect_urls.in_progress', (v: string) => redirects('in_progress', v)],
    ['payouts', payoutBody, 'webhook_url', (v: string) => ({ webhook_url: v })],
    ['payouts', payoutBody, 'redirect_urls.success', (v: string) => redirects('success', v)],
    ['payouts', payoutBody, 'redirect_urls.fail', (v: string) => redirects('fail', v)],
  ] as const)('v2 %s: %s of 2,048 characters is taken, of 2,049 a typed 400 at the field', async (resource, body, path, at) => {
    const sandbox = await start();
    closers.push(sandbox.close);
    const endpoint = `${sandbox.url}/v2/merchants/${resource}/`;
    const over = await post(endpoint, body(at(url(2049))));
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('invalid_request');
    expect(over.body.error.errors).toEqual([{ path, message: 'must be at most 2048 characters' }]);
    expect(await sandbox.admin.transactions()).toEqual([]);
    const within = await post(endpoint, body(at(url(2048))));
    expect(within.status).toBe(200);
    expect(await sandbox.admin.transactions()).toHaveLength(1);
  });

  it('legacy payins: a webhook_url of 2,049 characters is a typed 400 at the field', async () => {
    const sandbox = await start();
    closers.push(sandbox.close);
    const answer = await post(`${sandbox.url}/v1/merchants/payins/`, payinV1Body({ webhook_url: url(2049) }));
    expect(answer.status).toBe(400);
    expect(answer.body.error.errors).toEqual([{ path: 'webhook_url', message: 'must be at most 2048 characters' }]);
  });

  it('a plain-http webhook_url on an allowHttpHosts host is refused past 2,048 characters as well', async () => {
    // A docker-compose-like host name, under .invalid: the accepted webhook is never looked up.
    const sandbox = await start({ allowHttpHosts: ['shop.invalid'] });
    closers.push(sandbox.close);
    const endpoint = `${sandbox.url}/v2/merchants/payins/`;
    const long = `http://shop.invalid/${'a'.repeat(2049 - 20)}`;
    expect(long).toHaveLength(2049);
    const over = await post(endpoint, payinBody({ webhook_url: long }));
    expect(over.status).toBe(400);
    expect(over.body.error.errors).toContainEqual({ path: 'webhook_url', message: 'must be at most 2048 characters' });
    expect((await post(endpoint, payinBody({ webhook_url: long.slice(0, 2048) }))).status).toBe(200);
  });

  it.each([
    ['method', { method: 'm'.repeat(65) }, 64],
    ['language', { language: 'l'.repeat(65) }, 64],
    ['browser_data.user_agent', { browser_data: { user_agent: 'u'.repeat(1025), ip_address: '203.0.113.7' } }, 1024],
  ])('%s past its limit is a typed 400 naming the field', async (path, overrides, max) => {
    const sandbox = await start();
    closers.push(sandbox.close);
    const answer = await post(`${sandbox.url}/v2/merchants/payins/`, payinBody(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.error.errors).toEqual([{ path, message: `must be at most ${max} characters` }]);
    expect(await sandbox.admin.transactions()).toEqual([]);
  });
  it('a Host longer than any DNS name is refused', async () => {
    const sandbox = await start();
    closers.push(sandbox.close);
    const host = `${'a.'.repeat(150)}localhost`;
    expect((await raw(sandbox.url, { method: 'GET', path: '/_sandbox/health', headers: [['host', host]] })).status).toBe(421);
  });
});

describe("the Node sender's address cache", () => {
  it(`holds at most ${MAX_TARGETS} addresses, and is emptied by a new generation (a reset)`, async () => {
    const hooks = await receiver();
    closers.push(hooks.close);
    const sender = nodeSender();
    closers.push(() => sender.close());
    const first = new AbortController();
    for (let i = 0; i < MAX_TARGETS + 50; i++) {
      const status = await sender.send(hooks.url(`/hooks/${i}?${'q'.repeat(1000)}`), {
        headers: {},
        body: '{}',
        signal: first.signal,
        timeoutMs: 10_000,
      });
      expect(status).toBe(200);
    }
    expect(sender.cached).toBe(MAX_TARGETS);
    expect(hooks.all).toHaveLength(MAX_TARGETS + 50);
    first.abort(); // what a reset does to the generation's signal
    await sender.send(hooks.url('/after-reset'), { headers: {}, body: '{}', signal: new AbortController().signal, timeoutMs: 10_000 });
    expect(sender.cached).toBe(1);
  });
});

describe('the terminal', () => {
  it('shows control characters and bidi overrides a merchant chose escaped, in every log line', async () => {
    const hooks = await receiver();
    closers.push(hooks.close);
    const sandbox = await start();
    closers.push(sandbox.close);
    // A webhook URL the schema accepts, with C1's CSI (U+009B) and a right-to-left override.
    const sneaky = `${hooks.url('/hooks')}/\u009b31m\u202egnp.exe`;
    const created = await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ webhook_url: sneaky }));
    expect(created.status).toBe(200);
    await sandbox.admin.advance(0); // its first attempts, whatever their outcome, are logged
    // A reference id with the same, refused on a lookup of another merchant's, names nothing raw either.
    await post(`${sandbox.url}/v2/merchants/payins/`, payinBody({ reference_id: 'x\u009b2J\u2066y' }));
    const lines = sandbox.lines.join('\n');
    expect(lines).toContain('\\x9b31m\\u202egnp.exe');
    expect(lines).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
