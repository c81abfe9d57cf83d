// sign_simplified: the card-data push signature (merchant id + timestamp + payin id)
import { signSimplifiedVector } from '../build.mjs';
import { MERCHANT_B, MERCHANT_LATIN1_SECRET, MERCHANT_NON_ASCII_ID, PAYIN, PAYIN_2 } from '../fixtures.mjs';

export const category = 'sign_simplified';
export const command = 'sign_simplified';
export const description = 'x-simplified-signature on card-data pushes: merchant id + timestamp + payin id, no delimiters, no method.';

export function build() {
  const v = signSimplifiedVector;
  return [
    v('basic', {
      description: "merchant id + timestamp + payin id, no delimiters and no method, as the interface's worked example shows",
      flags: ['simplified'],
      payinId: PAYIN,
    }),
    v('other-payin', {
      description: 'another payin of the same merchant at the same second: only the payin id changes',
      flags: ['simplified'],
      payinId: PAYIN_2,
    }),
    v('other-merchant', {
      description: 'another merchant with its own secret',
      flags: ['simplified'],
      merchant: MERCHANT_B,
      timestamp: '1732203600',
      payinId: PAYIN,
    }),
    v('other-timestamp', {
      description: 'a timestamp a minute earlier: the timestamp is signed as the decimal string sent in x-timestamp',
      flags: ['simplified', 'timestamp'],
      timestamp: '1732199940',
      payinId: PAYIN,
    }),
    v('long-payin-id', {
      description: 'a 64-character payin id: no truncation',
      flags: ['simplified', 'long_id'],
      payinId: `pi_${'Z9y8X7w6V5u4T3s2R1q0'.repeat(3)}z`,
    }),
    v('non-ascii-merchant-id', {
      description: 'a merchant id with "é": the string is UTF-8 encoded',
      flags: ['simplified', 'non_ascii', 'non_ascii_merchant'],
      merchant: MERCHANT_NON_ASCII_ID,
      payinId: PAYIN,
    }),
    v('non-ascii-secret', {
      description: 'a secret with "é": the HMAC key is the secret\'s UTF-8 bytes',
      flags: ['simplified', 'non_ascii', 'non_ascii_secret'],
      merchant: MERCHANT_LATIN1_SECRET,
      payinId: PAYIN_2,
    }),
  ];
}
