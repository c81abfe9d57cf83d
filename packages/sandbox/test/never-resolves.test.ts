// Webhook addresses under a name that can never resolve: `.invalid` (RFC 6761: resolvers must
// answer "no such name" at once) and `.onion` (RFC 7686: reached only through Tor, never asked of
// DNS). Both senders fail such an attempt at once, in words that say why, without asking the
// resolver: no query leaves the machine. Names under `.test` and `.example` are still looked up
// (RFC 6761 lets a hosts file or a local DNS answer them, as a developer's setup may), here
// answered by this process's resolver pointed at a loopback receiver.
import dns from 'node:dns';
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailure, fetchSender, type WebhookSender } from '../src/deliveries.js';
import { nodeSender } from '../src/sender-node.js';
import { attemptsSettled, payinBody, post, sandboxForFile, type Started } from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const INVALID = 'name under .invalid never resolves (RFC 6761)';
const ONION = 'name under .onion is reached only through Tor, never looked up (RFC 7686)';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Counts every name this process's resolver is asked for (node:net, under both senders, calls
 * `dns.lookup` for each connection), answering `local` names with 127.0.0.1 as a hosts file would.
 */
function countLookups(local: readonly string[] = []): string[] {
  const real = dns.lookup;
  const asked: string[] = [];
  const lookup = (hostname: string, options: unknown, callback?: unknown) => {
    asked.push(hostname);
    if (!local.includes(hostname)) return (real as (...args: unknown[]) => void)(hostname, options, callback);
    const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
  };
  dns.lookup = lookup as typeof dns.lookup;
  cleanups.push(() => (dns.lookup = real));
  return asked;
}

const senders: [string, () => { send: WebhookSender; close(): void }][] = [
  ['the Node sender', () => nodeSender()],
  ['the fetch sender', () => ({ send: fetchSender, close: () => {} })],
];

const attempt = () => ({
  headers: { 'content-type': 'application/json' },
  body: '{}',
  signal: new AbortController().signal,
  timeoutMs: 5_000,
});

/** How a send ended: its status, or the delivery log's words for its failure. */
const outcome = (sent: Promise<number>) =>
  sent.then(
    (status) => status,
    (error: unknown) => describeFailure(error),
  );

describe.each(senders)('%s', (_name, make) => {
  it.each([
    ['a name under .invalid', 'https://shop.invalid/hooks/pay', INVALID],
    ['in capitals, with the root dot and a port', 'http://HOOKS.Shop.INVALID.:8080/x?y=1', INVALID],
    ['the bare top-level name', 'https://invalid/', INVALID],
    ['percent-encoded dots', 'https://shop%2Einvalid/hooks', INVALID],
    ['an ideographic full stop', 'https://shop\u3002invalid/hooks', INVALID],
    ['a name under .onion', 'https://shopabcdefghijklmnop.onion/hooks', ONION],
  ])('%s: fails at once, saying why, and asks no resolver', async (_case, url, words) => {
    const asked = countLookups();
    const sender = make();
    cleanups.push(() => sender.close());
    expect(await outcome(sender.send(url, attempt()))).toBe(words);
    expect(asked).toEqual([]);
  });

  it.each(['shop.test', 'shop.example'])('a name under %s is looked up as usual (a hosts file may answer it)', async (name) => {
    const hooks = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () => new Promise((resolve) => hooks.close(resolve)),
      () => hooks.closeAllConnections(),
    );
    const asked = countLookups([name]);
    const sender = make();
    cleanups.push(() => sender.close());
    expect(await outcome(sender.send(`http://${name}:${(hooks.address() as { port: number }).port}/hooks`, attempt()))).toBe(204);
    expect(asked).toContain(name);
  });
});

describe('the delivery log', () => {
  it('a webhook to a name under .invalid: each attempt failed with the reason, none looked up, retried as any failure', async () => {
    const asked = countLookups();
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: 'https://shop.invalid/hooks/pay' }));
    expect(created.status).toBe(200);
    const log = await attemptsSettled(sb, created.body.id, 2);
    expect(log.slice(0, 2).map((a) => [a.attempt, a.response_status, a.error])).toEqual([
      [1, null, INVALID],
      [2, null, INVALID],
    ]);
    expect(log[2]).toMatchObject({ attempt: 3, sent_at: null });
    expect(asked.filter((name) => name.endsWith('invalid'))).toEqual([]);
  });
});
