/**
 * Card data push body (`POST {card_proxy_url}/v1/push/<token>/`). No message of this package ever
 * repeats card data: the PAN is shown masked to its last four digits, the CSC never.
 *
 * @module
 */
import Type, { type Static } from 'typebox';
import { ERROR_MESSAGE } from './annotations.js';

/** Card number: 12 to 19 digits (ISO/IEC 7812) that pass the Luhn check (`format: pay-luhn`). */
export const Pan = Type.String({
  pattern: '^[0-9]{12,19}$',
  format: 'pay-luhn',
  description: 'Card number: 12 to 19 digits, no spaces, passing the Luhn check.',
  [ERROR_MESSAGE]: 'must be a card number of 12 to 19 digits, without spaces',
});

/** The card of a card data push. */
export const Card = Type.Object(
  {
    pan: Pan,
    exp_month: Type.String({
      pattern: '^(?:0[1-9]|1[0-2])$',
      description: 'Expiry month, two digits 01 to 12.',
      [ERROR_MESSAGE]: 'must be two digits from 01 to 12',
    }),
    exp_year: Type.String({
      pattern: '^[0-9]{4}$',
      description: 'Expiry year, four digits.',
      [ERROR_MESSAGE]: 'must be four digits, such as 2030',
    }),
    csc: Type.String({
      pattern: '^[0-9]{3,4}$',
      description: 'Card security code, 3 or 4 digits.',
      [ERROR_MESSAGE]: 'must be 3 or 4 digits',
    }),
  },
  { additionalProperties: false },
);

/** Body of the card data push (interface: "Card data push body"). */
export const CardPushRequest = Type.Object(
  {
    payin_id: Type.String({ minLength: 1, description: 'Id of an existing payin.' }),
    card: Card,
  },
  { additionalProperties: false, title: 'CardPushRequest', description: 'Card data push body.' },
);

/** Body of the card data push. */
export type CardPushRequest = Static<typeof CardPushRequest>;
