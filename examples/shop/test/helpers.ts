// A real sandbox and a real shop on loopback, wired as `pnpm demo` wires them, and small helpers
// over the sandbox's admin API. Waiting is polling a condition with a deadline, never a sleep.
import { spawn } from 'node:child_process';
import dns from 'node:dns';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { startSandbox, type DeliveryAttempt, type RunningSandbox } from '@pay/sandbox';
import { readConfig } from '../src/config.js';
import { startShop, type RunningShop } from '../src/server.js';

export interface Running {
  sandbox: RunningSandbox;
  shop: RunningShop;
  /** Every line the shop logged. */
  log: string[];
  close(): Promise<void>;
}

export async function startBoth(
  options: {
    testControls?: boolean;
    toleranceSeconds?: number;
    client?: Parameters<typeof startShop>[0]['client'];
    /** How often the shop's reconciler runs a pass, ms (its default is a minute). */
    reconcileEveryMs?: number;
    /** More environment variables for the shop, given the sandbox (its port is known only once started). */
    env?: (sandbox: RunningSandbox) => Record<string, string>;
    /** Names the sandbox answers under besides loopback (`pay-sandbox --allow-http-host`). */
    sandboxHosts?: string[];
  } = {},
): Promise<Running> {
  const sandbox = await startSandbox({
    ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
    ...(options.sandboxHosts === undefined ? {} : { allowHttpHosts: options.sandboxHosts }),
  });
  const log: string[] = [];
  let shop: RunningShop;
  try {
    const config = readConfig({
      PAY_BASE_URL: sandbox.url,
      PAY_CARD_PROXY_URL: sandbox.cardProxyUrl,
      SHOP_PORT: '0',
      SHOP_TEST_CONTROLS: options.testControls ? '1' : '0',
      ...options.env?.(sandbox),
    });
    shop = await startShop({
      ...config,
      log: (line) => log.push(line),
      ...(options.client ? { client: options.client } : {}),
      ...(options.reconcileEveryMs ? { reconcileEveryMs: options.reconcileEveryMs } : {}),
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    sandbox,
    shop,
    log,
    close: async () => {
      await shop.close();
      await sandbox.close();
    },
  };
}

/**
 * The sandbox's admin token on an admin call: a sandbox told it is reachable from elsewhere (here,
 * `allowHttpHosts`) asks every caller for it, this machine's too.
 */
function admin(sandbox: RunningSandbox): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${sandbox.adminToken}` } };
}

/** One webhook attempt in the sandbox's delivery log. */
export type Delivery = DeliveryAttempt;

export async function deliveries(sandbox: RunningSandbox, transactionId: string): Promise<Delivery[]> {
  const response = await fetch(`${sandbox.url}/_sandbox/deliveries?transaction_id=${encodeURIComponent(transactionId)}`, admin(sandbox));
  if (response.status !== 200) throw new Error(`deliveries: ${response.status}`);
  return (await response.json()) as Delivery[];
}

/** Advances the sandbox's schedule clock; resolves once everything due has run. */
export async function advanceClock(sandbox: RunningSandbox, seconds: number): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/clock/advance`, {
    ...admin(sandbox),
    method: 'POST',
    body: JSON.stringify({ seconds }),
  });
  if (response.status !== 200) throw new Error(`clock/advance: ${response.status} ${await response.text()}`);
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Posts a form to the shop as its own page would (same Origin), without following redirects. */
export function postForm(
  shop: { url: string },
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${shop.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: shop.url, 'user-agent': 'shop-test', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/** The order reference in a shop address such as `/orders/<ref>/success`. */
export function referenceIn(location: string): string {
  const match = /\/orders\/([^/?#]+)/.exec(location);
  if (!match) throw new Error(`no order reference in ${location}`);
  return decodeURIComponent(match[1]!);
}

/**
 * How many times the journal's handler ran for an order with this status, from this source (any
 * when not given): the handler logs one line per call (`<reference>: <status> from <source> -> ...`).
 */
export function handled(log: readonly string[], reference: string, status: string, source = '\\w+'): number {
  const line = new RegExp(`^${reference}: ${status} from ${source} -> `);
  return log.filter((l) => line.test(l)).length;
}

/** The sandbox's transactions, from its admin API. */
export async function transactions(
  sandbox: RunningSandbox,
): Promise<{ id: string; reference_id: string; status: string; payment: { amount: number; currency: string } }[]> {
  const response = await fetch(`${sandbox.url}/_sandbox/transactions`, admin(sandbox));
  if (response.status !== 200) throw new Error(`transactions: ${response.status}`);
  return (await response.json()) as never;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request over node:http with exactly the headers given, `host` included (fetch always sends
 * the URL's own host, so it cannot play a page whose name was rebound to this machine). A form,
 * when given, is sent urlencoded. Redirects are not followed.
 */
export function send(
  shop: { url: string },
  path: string,
  options: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.form === undefined ? undefined : new URLSearchParams(options.form).toString();
  const headers = { ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request(
      `${shop.url}${path}`,
      { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Writes `text` as is on a new connection to the shop and resolves with everything answered until
 * the shop closes it: for what node:http will not send (no Host header, a request in absolute form).
 */
export function sendRaw(shop: { url: string }, text: string): Promise<string> {
  const { hostname, port } = new URL(shop.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/**
 * Runs `body` with `name` resolving to `address` in this process, as docker-compose's DNS or an
 * /etc/hosts line would: node:net (under node:http and fetch) resolves through `dns.lookup` of
 * `node:dns`, read at each connection. Other names go to the real resolver. (The same helper as
 * @pay/client's tests have.)
 */
export async function withHostsEntry<T>(name: string, address: string, body: () => Promise<T>): Promise<T> {
  const real = dns.lookup;
  const lookup = (hostname: string, options: unknown, callback?: unknown) => {
    if (hostname.toLowerCase() !== name) return (real as (...args: unknown[]) => void)(hostname, options, callback);
    const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
  };
  dns.lookup = lookup as typeof dns.lookup;
  try {
    return await body();
  } finally {
    dns.lookup = real;
  }
}

/** `pnpm demo` and the shop alone, as built. */
const DEMO = join(import.meta.dirname, '..', 'dist', 'demo.js');
export const MAIN = join(import.meta.dirname, '..', 'dist', 'main.js');

/** Runs a built script as a user would, with more environment variables; collects its output. */
export function spawnScript(env: Record<string, string>, script = DEMO) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** True once nothing listens at `url` any more (the connection is refused). */
export const closed = (url: string) =>
  fetch(url).then(
    () => false,
    (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
  );

/** A free loopback port (for a shop that must come back on the same one). */
export { freePort } from '@pay/test-support';
