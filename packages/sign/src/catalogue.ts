// The catalogue of signing mistakes: what a signer signed instead of the request at hand, each
// mistake a variant of the string to sign (string-to-sign.ts) under a key, tried by HMAC until one
// matches the signature sent. Two views build their variants on it: the service's, which holds
// the merchant's secret and the other merchants' (signed-instead.ts: the sandbox, the conformance
// runner), and a webhook receiver's, which holds its own secret(s), the URL it is configured with
// and the Host header (received-instead.ts). Both are bounded by diagnosis-bounds.ts.
import { hmacHex } from '#hmac';
import { constantTimeEqual, type Part } from './bytes.js';
import { DIAGNOSIS_HMAC_LIMIT } from './diagnosis-bounds.js';

/** The mistakes the catalogue names. */
export type SigningMistake =
  | 'slash_dropped_on_wire'
  | 'slash_added_on_wire'
  | 'query_unsigned'
  | 'query_not_encoded_as_signed'
  | 'url_path_only'
  | 'scheme_other'
  | 'host_other'
  | 'port_dropped'
  | 'method_lowercase'
  | 'get_body_signed'
  | 'body_unsigned'
  | 'body_reserialised'
  | 'timestamp_off_by_one'
  | 'secret_newline'
  | 'secret_hex_decoded'
  | 'secret_hex_encoded'
  | 'secret_read_with_extra'
  | 'secret_padded_where_verified'
  | 'merchant_other_secret'
  | 'merchant_other_id'
  | 'merchant_other'
  | 'simplified_with_method'
  | 'simplified_as_x_signature'
  | 'simplified_other_payin';

/** A mistake that explains a signature: its name, and what was signed instead with the fix, in words. */
export interface SignedInstead {
  mistake: SigningMistake;
  /** "the URL without its trailing slash (…): sign exactly the URL you call, …" */
  what: string;
}

/** One entry to try: the key and string a mistaken signer would have used, and what that mistake is. */
export type Variant = [secret: string, message: Part[], mistake: SigningMistake, what: string];

/** Whether a signature is the HMAC of a message under a secret (the empty secret included). */
function signs(secret: string, message: Part[], signature: string): boolean {
  return constantTimeEqual(hmacHex(secret, message), signature);
}

/**
 * The first variant whose HMAC is the signature, trying at most DIAGNOSIS_HMAC_LIMIT; none for a
 * signature that is not 64 hex characters (no HMAC is computed then). Never throws.
 */
export function firstMatch(variants: Iterable<Variant>, signature: string): SignedInstead | undefined {
  try {
    if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return undefined;
    const sent = signature.toLowerCase();
    let tried = 0;
    for (const [secret, message, mistake, what] of variants) {
      if (++tried > DIAGNOSIS_HMAC_LIMIT) return undefined;
      if (signs(secret, message, sent)) return { mistake, what };
    }
  } catch {
    // a diagnosis is a courtesy: nothing about it may become a crash
  }
  return undefined;
}
