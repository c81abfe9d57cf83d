// Authentication exactly as the service does it, through @pay/sign only: `x-signature` over the
// exact URL called and the raw bytes received (verifyRequest), and `x-simplified-signature` on the
// card proxy (verifySimplified). Both judge the timestamp against the sandbox's clock (the wall
// clock unless a `clock` was given) at the request's arrival, and report the first failing check with the conformance harness's reason codes. The
// sandbox holds no HMAC or comparison code of its own.
import { readHeader, verifyRequest, verifySimplified, type HeadersLike, type VerifyFailureReason } from '@pay/sign';
import type { Merchant } from './merchants.js';

/** The verdict: the merchant who signed, or why the request is refused. */
export type AuthResult = { ok: true; merchant: Merchant } | { ok: false; reason: VerifyFailureReason; message: string };

/** What is signed with `x-signature`. */
export interface SignedCall {
  method: string;
  /** The exact URL called, as received. */
  url: string;
  headers: HeadersLike;
  /** The raw bytes received. */
  body: Uint8Array;
  /** Arrival, unix seconds (the sandbox's clock). */
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
  headers: HeadersLike;
  now: number;
  toleranceSeconds: number;
}

/**
 * Verifies the `x-simplified-signature` of a card push (merchant id + timestamp + payin id)
 * through @pay/sign's verifySimplified: the same checks in the same order as verifyRequest.
 */
export function authenticatePush(push: SignedPush): AuthResult {
  const verdict = verifySimplified({
    merchantId: push.merchant.id,
    secret: push.merchant.secret,
    payinId: push.payinId,
    headers: push.headers,
    now: push.now,
    toleranceSeconds: push.toleranceSeconds,
  });
  if (verdict.ok) return { ok: true, merchant: push.merchant };
  if (verdict.reason === 'merchant_mismatch') {
    return { ok: false, reason: verdict.reason, message: 'header x-merchant-id does not name the merchant of this payin' };
  }
  return { ok: false, reason: verdict.reason, message: verdict.message };
}
