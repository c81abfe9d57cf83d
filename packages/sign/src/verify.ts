// Checking a signed request or webhook: the harness protocol's checks, in its order, cheap ones
// before the HMAC, returning a verdict instead of throwing for anything the request contained.
import { hmacHex } from '#hmac';
import * as assert from './assert.js';
import type { Part } from './bytes.js';
import { constantTimeEqual } from './bytes.js';
import type { HeadersLike } from './headers.js';
import { readHeaders } from './headers.js';
import { nowSeconds } from './time.js';

/** Why a signed request was refused; the first failing check, in this order. */
export type VerifyFailureReason =
  | 'missing_header'
  | 'malformed_timestamp'
  | 'expired'
  | 'merchant_mismatch'
  | 'malformed_signature'
  | 'bad_signature';

/** The verdict of {@link verifyRequest}. */
export type VerifyResult =
  | {
      ok: true;
      /** Index in `secrets` of the secret that matched (0 when a single `secret` was given). */
      secretIndex: number;
    }
  | {
      ok: false;
      reason: VerifyFailureReason;
      /** What was wrong, for logs; names the header, never a secret. */
      message: string;
    };

/** Options of {@link verifyRequest}. Give `secret`, or `secrets` while rotating keys. */
export interface VerifyRequestOptions {
  /** The merchant id the request must come from (or, for a webhook, be addressed to). */
  merchantId: string;
  /** The merchant secret key. */
  secret?: string | undefined;
  /** Several secret keys, any of which may have signed (key rotation); the result says which. */
  secrets?: readonly string[] | undefined;
  /** The request's method. */
  method: string;
  /**
   * The exact URL that was signed. For a webhook: the `webhook_url` given at creation or the
   * static webhook address, never a URL rebuilt from the incoming request (proxies rewrite it).
   */
  url: string;
  /** The headers as received: a Fetch `Headers` or an object with any-case names. */
  headers: HeadersLike;
  /** The exact body received, as a string or bytes; never a parsed object. */
  body?: string | Uint8Array | undefined;
  /** The receiver's clock, unix seconds; defaults to now. */
  now?: number | undefined;
  /** Largest accepted |now - x-timestamp|, in seconds; defaults to the interface's 60. */
  toleranceSeconds?: number | undefined;
}

const DIGITS = /^[0-9]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const SIGNED_HEADERS = ['x-merchant-id', 'x-timestamp', 'x-signature'];

function failure(reason: VerifyFailureReason, message: string): Extract<VerifyResult, { ok: false }> {
  return { ok: false, reason, message };
}

// A receiver verifies every request against the same merchant id and URL, so the last ones that
// passed their checks are remembered and not checked again: on a ~200-byte webhook the checks
// would otherwise cost a tenth of the whole verification.
let checkedMerchantId: string | undefined;
let checkedUrl: string | undefined;
let checkedSecrets: readonly string[] | undefined;

/**
 * Verifies the `x-signature` of a call to the service or of a webhook.
 *
 * Checks, in order: the three headers are present and non-empty (`missing_header`), `x-timestamp`
 * is decimal digits (`malformed_timestamp`), within `toleranceSeconds` of `now` either way
 * (`expired`), `x-merchant-id` is `merchantId` (`merchant_mismatch`), `x-signature` is 64 hex
 * characters (`malformed_signature`, upper case accepted), and it equals the HMAC of the exact
 * URL and body under one of the secrets, compared in constant time (`bad_signature`).
 *
 * @returns a verdict; it never throws for anything the request contained (headers included: a
 *   headers object that throws while it is read counts as having none).
 * @throws TypeError only for unusable options (no secret, empty merchant id, a URL that is not
 *   absolute http(s), a body that is not a string or bytes).
 * @example
 * ```ts
 * const result = verifyRequest({ merchantId: 'm_1', secret: process.env.PAY_SECRET!, method: 'POST',
 *   url: 'https://shop.example/webhooks/pay', headers: req.headers, body: rawBody });
 * if (!result.ok) console.warn(`webhook refused: ${result.reason}: ${result.message}`);
 * ```
 */
export function verifyRequest(options: VerifyRequestOptions): VerifyResult {
  const secrets = secretList(options);
  const { merchantId, url } = options;
  if (merchantId !== checkedMerchantId || merchantId === undefined) {
    checkedMerchantId = assert.nonEmptyString(merchantId, 'merchantId');
  }
  if (url !== checkedUrl || url === undefined) checkedUrl = assert.url(url);
  const body = assert.body(options.body);

  const sent = sentHeaders(options.headers, SIGNED_HEADERS, merchantId, options);
  if ('ok' in sent) return sent;

  let method: string;
  try {
    method = assert.method(options.method);
  } catch {
    return failure('bad_signature', 'the request method is not an HTTP method token');
  }
  // The string to sign, as requestParts builds it; the merchant id and URL are checked above.
  const head = merchantId + sent.timestamp + method + url;
  // The interface: "The body part is empty for GET requests", whatever a caller passes.
  const parts: Part[] = method === 'GET' ? [head] : typeof body === 'string' ? [head + body] : [head, body];
  return matching(secrets, parts, sent.signature, 'header x-signature does not match the exact URL and body under the merchant secret');
}

/** Options of {@link verifySimplified}. Give `secret`, or `secrets` while rotating keys. */
export interface VerifySimplifiedOptions {
  /** The merchant id the push must come from: the merchant of the payin. */
  merchantId: string;
  /** The merchant secret key. */
  secret?: string | undefined;
  /** Several secret keys, any of which may have signed (key rotation); the result says which. */
  secrets?: readonly string[] | undefined;
  /** The id of the payin whose card data is pushed (what the signature covers). */
  payinId: string;
  /** The headers as received: a Fetch `Headers` or an object with any-case names. */
  headers: HeadersLike;
  /** The receiver's clock, unix seconds; defaults to now. */
  now?: number | undefined;
  /** Largest accepted |now - x-timestamp|, in seconds; defaults to the interface's 60. */
  toleranceSeconds?: number | undefined;
}

const SIMPLIFIED_HEADERS = ['x-merchant-id', 'x-timestamp', 'x-simplified-signature'];

/**
 * Verifies the `x-simplified-signature` of a card-data push: merchant id + `x-timestamp` + payin
 * id (no method, no URL, no body: the interface's worked example).
 *
 * The same checks as {@link verifyRequest}, in the same order, with the same reasons: the three
 * headers present, `x-timestamp` decimal digits within `toleranceSeconds`, `x-merchant-id` equal
 * to `merchantId`, `x-simplified-signature` 64 hex characters, and equal to the HMAC under one of
 * the secrets, compared in constant time.
 *
 * @returns a verdict; it never throws for anything the request contained.
 * @throws TypeError only for unusable options (no secret, an empty merchant or payin id).
 * @example
 * ```ts
 * const result = verifySimplified({ merchantId: 'm_1', secret: process.env.PAY_SECRET!, payinId: 'pi_1', headers: req.headers });
 * if (!result.ok) console.warn(`card push refused: ${result.reason}: ${result.message}`);
 * ```
 */
export function verifySimplified(options: VerifySimplifiedOptions): VerifyResult {
  const secrets = secretList(options);
  const merchantId = assert.nonEmptyString(options.merchantId, 'merchantId');
  const payinId = assert.nonEmptyString(options.payinId, 'payinId');
  const sent = sentHeaders(options.headers, SIMPLIFIED_HEADERS, merchantId, options);
  if ('ok' in sent) return sent;
  return matching(
    secrets,
    [merchantId + sent.timestamp + payinId],
    sent.signature,
    'header x-simplified-signature does not match merchant id + x-timestamp + payin id under the merchant secret',
  );
}

/**
 * The checks before the HMAC, in the harness protocol's order, on the three headers `names`
 * (merchant id, timestamp, signature): the timestamp and signature as sent, or the first failure.
 * The clock options are checked first (a TypeError: they are the caller's, not the request's).
 */
function sentHeaders(
  headers: HeadersLike,
  names: readonly string[],
  merchantId: string,
  clock: { now?: number | undefined; toleranceSeconds?: number | undefined },
): { timestamp: string; signature: string } | Extract<VerifyResult, { ok: false }> {
  const tolerance = clock.toleranceSeconds ?? 60;
  const now = clock.now ?? nowSeconds();
  if (!(tolerance >= 0) || !Number.isFinite(now)) {
    throw new TypeError('toleranceSeconds must be a non-negative number and now a finite number of unix seconds');
  }
  const [sentMerchant, sentTimestamp, sentSignature] = readHeaders(headers, names);
  if (!sentMerchant) return failure('missing_header', `header ${names[0]} is missing or empty`);
  if (!sentTimestamp) return failure('missing_header', `header ${names[1]} is missing or empty`);
  if (!sentSignature) return failure('missing_header', `header ${names[2]} is missing or empty`);

  if (!DIGITS.test(sentTimestamp)) {
    return failure('malformed_timestamp', 'header x-timestamp must be whole unix seconds in decimal digits');
  }
  const skew = Math.abs(now - Number(sentTimestamp)); // a huge digit string is Infinity: expired
  if (!(skew <= tolerance)) {
    return failure(
      'expired',
      `header x-timestamp is ${skew === Infinity ? 'far' : `${skew} s`} from now; at most ${tolerance} s is accepted`,
    );
  }
  if (sentMerchant !== merchantId) {
    return failure('merchant_mismatch', 'header x-merchant-id does not name the expected merchant');
  }
  if (!HEX64.test(sentSignature)) {
    return failure('malformed_signature', `header ${names[2]} must be 64 hexadecimal characters`);
  }
  return { timestamp: sentTimestamp, signature: sentSignature.toLowerCase() };
}

/** Which secret signed `parts`, every secret tried even after a match (timing tells nothing). */
function matching(secrets: readonly string[], parts: readonly Part[], signature: string, mismatch: string): VerifyResult {
  let matched = -1;
  for (let i = 0; i < secrets.length; i++) {
    if (constantTimeEqual(hmacHex(secrets[i]!, parts), signature) && matched < 0) matched = i;
  }
  return matched < 0 ? failure('bad_signature', mismatch) : { ok: true, secretIndex: matched };
}

function secretList(options: VerifyRequestOptions | VerifySimplifiedOptions): readonly string[] {
  if (options === null || typeof options !== 'object') throw new TypeError('expected an object of options');
  const { secret, secrets } = options;
  if (secrets === undefined && typeof secret === 'string' && secret.length > 0) return [secret]; // the usual case
  if (secret === undefined && secrets !== undefined && secrets === checkedSecrets) return secrets;
  if (secret !== undefined && secrets !== undefined) throw new TypeError('give either secret or secrets, not both');
  const list = secrets ?? (secret === undefined ? [] : [secret]);
  if (!Array.isArray(list) || list.length === 0) throw new TypeError('a secret (or a non-empty secrets list) is required');
  for (const [i, s] of list.entries()) assert.nonEmptyString(s, secrets ? `secrets[${i}]` : 'secret');
  if (secrets !== undefined) checkedSecrets = secrets;
  return list;
}
