// The mistakes a signer makes in x-simplified-signature (the card-data push), as data. Each
// builder returns the key and the message the mistaken signer would feed to HMAC.
import { latin1, utf8 } from '../bytes.mjs';

/** sign_simplified mistakes. */
export const SIMPLIFIED_MISTAKES = [
  {
    name: 'simplified_method_included',
    make: ({ input, key }) => ({
      key,
      message: utf8(`${input.merchant_id + input.timestamp}POST${input.payin_id}`),
      description: 'signed merchant id + timestamp + "POST" + payin id; the worked example has no method',
    }),
  },
  {
    name: 'simplified_fields_reordered',
    make: ({ input, key }) => ({
      key,
      message: utf8(input.timestamp + input.merchant_id + input.payin_id),
      description: 'signed timestamp + merchant id + payin id; the merchant id comes first',
    }),
  },
  {
    name: 'secret_latin1',
    make: ({ input, message }) => ({
      key: latin1(input.secret),
      message,
      description: `encoded the secret as Latin-1 (low byte of each UTF-16 unit: ${latin1(input.secret).toString('hex')}) instead of UTF-8`,
    }),
  },
];
