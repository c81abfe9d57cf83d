// Merchants the sandbox knows: checked once at start, parsed from `ID:SECRET[:WEBHOOK_URL]`.
/** A merchant of the sandbox: its id, its secret key and, optionally, a static webhook address. */
export interface Merchant {
  /** Sent as `x-merchant-id`. */
  id: string;
  /** The HMAC key of its requests and webhooks. */
  secret: string;
  /** When set, every webhook of this merchant goes here instead of the transaction's `webhook_url`. */
  webhookUrl?: string | undefined;
}

/**
 * The merchant a sandbox started without any has: fixed credentials, so examples and demos can
 * use them as defaults. Only for a local sandbox.
 */
export const DEMO_MERCHANT: Readonly<Merchant> = Object.freeze({ id: 'm_demo', secret: 'sk_sandbox_demo' });

/** Whether a merchant's secret is the demo merchant's, which is published (in this README, in examples). */
export function hasPublishedSecret(merchant: Merchant): boolean {
  return merchant.secret === DEMO_MERCHANT.secret;
}

const ID = /^[A-Za-z0-9._~-]{1,64}$/;
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * A copy of a merchant that `util.inspect` (console.log, test failure output) shows with its
 * secret hidden; the secret is still there for code that reads it.
 */
export function shownWithoutSecret(merchant: Merchant): Merchant {
  const copy = { ...merchant };
  Object.defineProperty(copy, INSPECT, {
    enumerable: false,
    value: () => ({
      id: merchant.id,
      secret: '[hidden]',
      ...(merchant.webhookUrl === undefined ? {} : { webhookUrl: merchant.webhookUrl }),
    }),
  });
  return copy;
}
/**
 * Checks a list of merchants: ids of 1 to 64 URL-safe characters, unique; secrets non-empty;
 * static webhook addresses strings (the sandbox checks them against its names: https, or http to
 * a loopback host or one it is told is on a private network). An empty list gives the demo
 * merchant.
 *
 * @throws TypeError naming the merchant (never its secret) and what is wrong.
 */
export function checkMerchants(merchants: readonly Merchant[] | undefined): Merchant[] {
  if (merchants === undefined || merchants.length === 0) return [{ ...DEMO_MERCHANT }];
  if (!Array.isArray(merchants)) throw new TypeError('merchants must be an array of { id, secret, webhookUrl? }');
  const seen = new Set<string>();
  return merchants.map((m, i) => {
    if (m === null || typeof m !== 'object') throw new TypeError(`merchants[${i}] must be an object { id, secret, webhookUrl? }`);
    if (typeof m.id !== 'string' || !ID.test(m.id)) {
      throw new TypeError(`merchants[${i}].id must be 1 to 64 letters, digits or . _ ~ -`);
    }
    if (seen.has(m.id)) throw new TypeError(`merchant ${m.id} is given twice`);
    seen.add(m.id);
    if (typeof m.secret !== 'string' || m.secret.length === 0)
      throw new TypeError(`merchant ${m.id}: the secret must be a non-empty string`);
    if (m.webhookUrl !== undefined && typeof m.webhookUrl !== 'string') {
      throw new TypeError(`merchant ${m.id}: webhookUrl must be an absolute https URL`);
    }
    return m.webhookUrl === undefined ? { id: m.id, secret: m.secret } : { id: m.id, secret: m.secret, webhookUrl: m.webhookUrl };
  });
}

/**
 * Parses `ID:SECRET` or `ID:SECRET:STATIC_WEBHOOK_URL` (the URL keeps its own colons).
 *
 * @throws TypeError when the text has no secret part; the message never repeats the secret.
 * @example
 * ```ts
 * parseMerchant('m_1:sk_1:http://127.0.0.1:4000/hooks'); // { id: 'm_1', secret: 'sk_1', webhookUrl: 'http://127.0.0.1:4000/hooks' }
 * ```
 */
export function parseMerchant(text: string): Merchant {
  const first = text.indexOf(':');
  if (first <= 0) throw new TypeError('a merchant is written ID:SECRET or ID:SECRET:STATIC_WEBHOOK_URL');
  const id = text.slice(0, first);
  const rest = text.slice(first + 1);
  const second = rest.indexOf(':');
  const secret = second < 0 ? rest : rest.slice(0, second);
  const webhookUrl = second < 0 ? undefined : rest.slice(second + 1);
  if (secret.length === 0) throw new TypeError(`merchant ${id}: the secret is empty (write ID:SECRET)`);
  return checkMerchants([webhookUrl === undefined ? { id, secret } : { id, secret, webhookUrl }])[0]!;
}
