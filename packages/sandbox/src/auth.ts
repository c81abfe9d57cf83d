// Authentication exactly as the service does it: `x-signature` over the exact URL called and the
// raw bytes received (through @pay/sign's verifyRequest), and `x-simplified-signature` on the card
// proxy. Both judge the timestamp against the wall clock at the request's arrival, and report the
// first failing check with the conformance harness's reason codes.
import { readHeader, signSimplified, verifyRequest, type VerifyFailureReason } from '@pay/sign';
import type { Merchant } from './merchants.js';

/** The verdict: the merchant who signed, or why the request is refused. */
export type AuthResult = { ok: true; merchant: Merchant } | { ok: false; reason: VerifyFailureReason; message: string };

/** What is signed with `x-signature`. */
export interface SignedCall {
  method: string;
  /** The exact URL called, as received. */
  url: string;
  headers: Headers;
  /** The raw bytes received. */
  body: Uint8Array;
  /** Arrival, unix seconds (wall clock). */
  now: number;
  toleranceSeconds: number;
}

// Used for an unknown merchant so that verifyRequest still runs its checks in order (header,
// timestamp format, expiry) and then fails on the merchant, as it would for a known one.
const NOBODY = { id: '\u0000', secret: '\u0000' };

/** Verifies the `x-signature` of a call, finding the merchant by `x-merchant-id`. */
export function authenticate(merchants: ReadonlyMap<string, Merchant>, call: SignedCall): AuthResult {
  const claimed = readHeader(call.headers, 'x-merchant-id');
  const merchant = (claimed !== undefined && merchants.get(claimed)) || NOBODY;
  let verdict: ReturnType<typeof verifyRequest>;
  try {
    verdict = verifyRequest({
      merchantId: merchant.id,
      secret: merchant.secret,
      method: call.method,
      url: call.url,
      headers: call.headers,
      body: call.body,
      now: call.now,
      toleranceSeconds: call.toleranceSeconds,
    });
  } catch {
    // verifyRequest throws only for unusable options; the URL called is the one input that could be.
    return { ok: false, reason: 'bad_signature', message: 'the URL called is not one a signature can cover' };
  }
  if (verdict.ok) return { ok: true, merchant };
  if (verdict.reason === 'merchant_mismatch') {
    return { ok: false, reason: verdict.reason, message: 'header x-merchant-id names no merchant of this sandbox' };
  }
  return { ok: false, reason: verdict.reason, message: verdict.message };
}

/** What is signed with `x-simplified-signature`: the payin the push address was issued for. */
export interface SignedPush {
  merchant: Merchant;
  payinId: string;
  headers: Headers;
  now: number;
  toleranceSeconds: number;
}

const DIGITS = /^[0-9]+$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * Verifies the `x-simplified-signature` of a card push (merchant id + timestamp + payin id), with
 * the same checks in the same order as verifyRequest.
 */
export function authenticatePush(push: SignedPush): AuthResult {
  const sentMerchant = readHeader(push.headers, 'x-merchant-id');
  const sentTimestamp = readHeader(push.headers, 'x-timestamp');
  const sentSignature = readHeader(push.headers, 'x-simplified-signature');
  const refuse = (reason: VerifyFailureReason, message: string): AuthResult => ({ ok: false, reason, message });
  if (!sentMerchant) return refuse('missing_header', 'header x-merchant-id is missing or empty');
  if (!sentTimestamp) return refuse('missing_header', 'header x-timestamp is missing or empty');
  if (!sentSignature) return refuse('missing_header', 'header x-simplified-signature is missing or empty');
  if (!DIGITS.test(sentTimestamp)) return refuse('malformed_timestamp', 'header x-timestamp must be whole unix seconds in decimal digits');
  const skew = Math.abs(push.now - Number(sentTimestamp));
  if (!(skew <= push.toleranceSeconds)) {
    return refuse('expired', `header x-timestamp is ${skew === Infinity ? 'far' : `${skew} s`} from now; at most ${push.toleranceSeconds} s is accepted`);
  }
  if (sentMerchant !== push.merchant.id) {
    return refuse('merchant_mismatch', 'header x-merchant-id does not name the merchant of this payin');
  }
  if (!HEX64.test(sentSignature)) return refuse('malformed_signature', 'header x-simplified-signature must be 64 hexadecimal characters');
  const expected = signSimplified({
    merchantId: push.merchant.id,
    secret: push.merchant.secret,
    payinId: push.payinId,
    timestamp: sentTimestamp,
  })['x-simplified-signature'];
  if (!constantTimeEqual(expected, sentSignature.toLowerCase())) {
    return refuse('bad_signature', 'header x-simplified-signature does not match merchant id + x-timestamp + payin id under the merchant secret');
  }
  return { ok: true, merchant: push.merchant };
}

/** Compares two strings of equal length without an early exit. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
