// A real sandbox and a real shop on loopback, wired as `pnpm demo` wires them, and small helpers
// over the sandbox's admin API. Waiting is polling a condition with a deadline, never a sleep.
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
  options: { testControls?: boolean; toleranceSeconds?: number; client?: Parameters<typeof startShop>[0]['client'] } = {},
): Promise<Running> {
  const sandbox = await startSandbox(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds });
  const config = readConfig({
    PAY_BASE_URL: sandbox.url,
    PAY_CARD_PROXY_URL: sandbox.cardProxyUrl,
    SHOP_PORT: '0',
    SHOP_TEST_CONTROLS: options.testControls ? '1' : '0',
  });
  const log: string[] = [];
  const shop = await startShop({ ...config, log: (line) => log.push(line), ...(options.client ? { client: options.client } : {}) });
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

/** One webhook attempt in the sandbox's delivery log. */
export type Delivery = DeliveryAttempt;

export async function deliveries(sandbox: RunningSandbox, transactionId: string): Promise<Delivery[]> {
  const response = await fetch(`${sandbox.url}/_sandbox/deliveries?transaction_id=${encodeURIComponent(transactionId)}`);
  if (response.status !== 200) throw new Error(`deliveries: ${response.status}`);
  return (await response.json()) as Delivery[];
}

/** Advances the sandbox's schedule clock; resolves once everything due has run. */
export async function advanceClock(sandbox: RunningSandbox, seconds: number): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds }) });
  if (response.status !== 200) throw new Error(`clock/advance: ${response.status} ${await response.text()}`);
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Posts a form to the shop as its own page would (same Origin), without following redirects. */
export function postForm(shop: { url: string }, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
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

/** How many webhooks with this status the shop processed for an order. */
export function processed(shop: RunningShop, reference: string, status: string): number {
  return shop.orders.get(reference)?.history.filter((e) => e.source === 'webhook' && e.status === status).length ?? 0;
}
