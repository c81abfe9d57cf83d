// Naming the mistake behind a refused signature. The sandbox has the request in hand, so when a
// signature does not match it asks @pay/sign's catalogue of signing mistakes (signedInstead: the
// URL without its trailing slash, the method in lower case, the body before it was re-serialised,
// the secret decoded as hex, another merchant's secret...) and says which one matched, in words,
// in `error.hint`. The conformance runner names an SDK's mistakes from the same catalogue, and a
// webhook receiver its near misses.
//
// Anyone can send a request naming a merchant, so the work is bounded by the bounds of every
// signature diagnosis, decided in @pay/sign (diagnosis-bounds.ts): only bodies up to
// HINT_BODY_LIMIT are tried, a fixed list of variants (a few dozen HMACs at most), and at most
// HINTS_PER_SECOND worked out per second; beyond that the hint says it was skipped. A hint never
// holds the secret or the expected signature: only which variant matched.
import {
  DIAGNOSIS_BODY_LIMIT,
  readHeader,
  SERVICE_DIAGNOSES_PER_SECOND,
  signedInstead,
  simplifiedSignedInstead,
  TokenBucket,
  type HeadersLike,
  type VerifyFailureReason,
} from '@pay/sign';
import type { Merchant } from './merchants.js';

/** Bodies larger than this (bytes) are not re-signed in variants: @pay/sign's limit of every diagnosis. */
export const HINT_BODY_LIMIT = DIAGNOSIS_BODY_LIMIT;
/** How many signature diagnoses run per second at most (a burst of as many): @pay/sign's rate for a service. */
export const HINTS_PER_SECOND = SERVICE_DIAGNOSES_PER_SECOND;

/** A refused request, as the diagnosis sees it. */
export interface Refusal {
  reason: VerifyFailureReason;
  /** Which signature the endpoint takes. */
  scheme: 'x-signature' | 'x-simplified-signature';
  merchants: ReadonlyMap<string, Merchant>;
  /** For the card push: the merchant of the token's payin (the one that must sign). */
  pushMerchant?: Merchant;
  /** For the card push: the payin id that is signed. */
  payinId?: string;
  method: string;
  /** The exact URL that is signed. */
  url: string;
  headers: HeadersLike;
  body: Uint8Array;
  /** Arrival, unix seconds. */
  now: number;
}

/** The sandbox's budget of diagnoses: @pay/sign's token bucket, HINTS_PER_SECOND a second, bursts of as many. */
export class HintBudget extends TokenBucket {
  constructor() {
    super(HINTS_PER_SECOND);
  }
}

const SKIPPED = `not worked out: signature diagnoses run at most ${HINTS_PER_SECOND} times a second, so that forged requests cannot multiply the work`;

/**
 * The likely mistake behind a refusal, in words; undefined when none is recognised (a bad signature
 * of a known merchant always gets one: the mistake found, or that the secret is likeliest). Never throws.
 */
export function diagnose(refusal: Refusal, budget: HintBudget, nowMs: number): string | undefined {
  try {
    switch (refusal.reason) {
      case 'missing_header':
        return missingHeader(refusal);
      case 'malformed_timestamp':
        return malformedTimestamp(readHeader(refusal.headers, 'x-timestamp') ?? '');
      case 'expired':
        return clockOffset(readHeader(refusal.headers, 'x-timestamp') ?? '', refusal.now);
      case 'merchant_mismatch':
        return unknownMerchant(refusal);
      case 'malformed_signature':
        return malformedSignature(readHeader(refusal.headers, refusal.scheme) ?? '');
      case 'bad_signature':
        if (refusal.body.byteLength > HINT_BODY_LIMIT) return undefined;
        if (!budget.take(nowMs)) return SKIPPED;
        return refusal.scheme === 'x-signature' ? signatureVariant(refusal) : simplifiedVariant(refusal);
    }
  } catch {
    return undefined; // a hint is a courtesy: nothing about it may turn a refusal into a crash
  }
  return undefined;
}

function missingHeader(r: Refusal): string | undefined {
  const other = r.scheme === 'x-signature' ? 'x-simplified-signature' : 'x-signature';
  if (readHeader(r.headers, r.scheme) === undefined && readHeader(r.headers, other) !== undefined) {
    return r.scheme === 'x-signature'
      ? 'the request carries x-simplified-signature, which only the card push takes; sign this endpoint with x-signature (merchant id + timestamp + method + full URL + body)'
      : 'the card push is signed with x-simplified-signature (merchant id + timestamp + payin id), not x-signature';
  }
  for (const name of ['x_merchant_id', 'x_timestamp', 'x_signature', 'x_simplified_signature']) {
    if (readHeader(r.headers, name) !== undefined) return `a header is named ${name}: the names use hyphens (${name.replaceAll('_', '-')})`;
  }
  return undefined;
}

function malformedTimestamp(sent: string): string | undefined {
  if (/^[0-9]+\.[0-9]+$/.test(sent))
    return 'x-timestamp has a fraction: send whole unix seconds (Math.floor(Date.now() / 1000), int(time.time()))';
  if (/^\s|\s$/.test(sent)) return 'x-timestamp has white space around it: send the digits alone';
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}/.test(sent)) return 'x-timestamp is a date: send unix seconds in decimal digits';
  return undefined;
}

function clockOffset(sent: string, now: number): string | undefined {
  if (!/^[0-9]{1,16}$/.test(sent)) return undefined;
  const ts = Number(sent);
  if (sent.length >= 13 && Math.abs(Math.floor(ts / 1000) - now) <= 24 * 3600) {
    return 'x-timestamp looks like milliseconds: send whole seconds (Math.floor(Date.now() / 1000))';
  }
  const offset = ts - now;
  const way = offset < 0 ? 'behind' : 'ahead of';
  return (
    `x-timestamp is ${Math.abs(offset)} s ${way} the sandbox's clock (x-timestamp ${sent}, sandbox ${now}): ` +
    (Math.abs(offset) < 24 * 3600
      ? "set the signing machine's clock (NTP), or stop reusing a timestamp from an earlier request"
      : 'send the current unix time in seconds')
  );
}

function unknownMerchant(r: Refusal): string | undefined {
  const claimed = readHeader(r.headers, 'x-merchant-id') ?? '';
  if (r.pushMerchant !== undefined) {
    return r.merchants.has(claimed)
      ? `this push address belongs to a payin of merchant ${r.pushMerchant.id}: sign it as that merchant`
      : `x-merchant-id names no merchant of this sandbox; this push address belongs to merchant ${r.pushMerchant.id}`;
  }
  const near = [...r.merchants.keys()].find((id) => id.toLowerCase() === claimed.trim().toLowerCase());
  if (near !== undefined) return `x-merchant-id differs from merchant ${near} only in case or white space: send the id exactly`;
  const ids = [...r.merchants.keys()];
  const shown = ids.slice(0, 10).join(', ') + (ids.length > 10 ? `, and ${ids.length - 10} more` : '');
  return `x-merchant-id names no merchant of this sandbox; its merchants are ${shown}`;
}

function malformedSignature(sent: string): string | undefined {
  if (/^sha256=/i.test(sent)) return `the signature has a sha256= prefix: send the 64 hex characters alone`;
  if (/^[A-Za-z0-9+/]{43}=$/.test(sent) || /^[A-Za-z0-9_-]{43}$/.test(sent))
    return 'the signature looks like base64: send the HMAC as 64 hexadecimal characters';
  if (/^[0-9a-fA-F]{128}$/.test(sent)) return 'the signature has 128 hex characters, the length of SHA-512: use HMAC-SHA256';
  if (/^[0-9a-fA-F]{64}$/.test(sent.trim())) return 'the signature has white space around it: send the 64 hex characters alone';
  return undefined;
}

function signatureVariant(r: Refusal): string | undefined {
  const id = readHeader(r.headers, 'x-merchant-id');
  const merchant = id === undefined ? undefined : r.merchants.get(id);
  const ts = readHeader(r.headers, 'x-timestamp');
  const signature = readHeader(r.headers, 'x-signature');
  if (merchant === undefined || ts === undefined || signature === undefined) return undefined;
  const found = signedInstead({
    merchantId: merchant.id,
    secret: merchant.secret,
    timestamp: ts,
    method: r.method,
    url: r.url,
    body: r.body,
    signature,
    others: r.merchants.values(),
  });
  return found === undefined ? noVariant(merchant.id) : `the signature matches ${found.what}`;
}

/**
 * When no mistake of the catalogue matches, the likeliest cause left is a secret that is not this
 * merchant's: say so, and where the sandbox's secret comes from, without a word about the secret.
 */
const noVariant = (merchantId: string) =>
  `no common signing mistake matches (URL, method, body and secret variants were tried): the secret is most likely not merchant ${merchantId}'s; sign with the one this sandbox was started with for ${merchantId} (--merchant ${merchantId}:<secret>, or merchants in startSandbox)`;

function simplifiedVariant(r: Refusal): string | undefined {
  const merchant = r.pushMerchant;
  const ts = readHeader(r.headers, 'x-timestamp');
  const signature = readHeader(r.headers, 'x-simplified-signature');
  if (merchant === undefined || ts === undefined || signature === undefined) return undefined;
  const found = simplifiedSignedInstead({
    merchantId: merchant.id,
    secret: merchant.secret,
    timestamp: ts,
    method: r.method,
    url: r.url,
    body: r.body,
    payinId: r.payinId ?? '',
    signature,
    others: r.merchants.values(),
  });
  return found === undefined ? noVariant(merchant.id) : `the signature matches ${found.what}`;
}
