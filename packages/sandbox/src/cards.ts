// Test cards: the card number pushed to the card proxy decides the payin's outcome.

/** What a pushed card does to its payin. */
export interface CardOutcome {
  status: 'executed' | 'failed';
  error_code: string | null;
  error_message: string | null;
}

/** A test card number and its outcome. */
export interface TestCard extends CardOutcome {
  pan: string;
  /** What it is for, in a few words. */
  description: string;
}

const ok = (pan: string, description: string): TestCard => ({
  pan,
  description,
  status: 'executed',
  error_code: null,
  error_message: null,
});
const declined = (pan: string, description: string, error_code: string, error_message: string): TestCard => ({
  pan,
  description,
  status: 'failed',
  error_code,
  error_message,
});

/**
 * The test card table. Any other number that passes the schema (12 to 19 digits, Luhn) succeeds,
 * unless its expiry month is before the schedule clock's current month (`expired_card`).
 */
export const TEST_CARDS: readonly TestCard[] = Object.freeze([
  ok('4242424242424242', 'Visa, succeeds'),
  ok('5555555555554444', 'Mastercard, succeeds'),
  declined('4000000000000002', 'declined', 'card_declined', 'The card was declined.'),
  declined('4000000000009995', 'insufficient funds', 'insufficient_funds', 'The card has insufficient funds.'),
  declined('4000000000000069', 'expired card', 'expired_card', 'The card has expired.'),
  declined('4000000000000127', 'wrong security code', 'incorrect_csc', 'The card security code is incorrect.'),
  declined('4000000000000119', 'processing error', 'processing_error', 'An error occurred while processing the card.'),
]);

const byPan = new Map(TEST_CARDS.map((c) => [c.pan, c]));

/** The outcome of a pushed card (already schema-checked) at schedule-clock time `now` (ms). */
export function cardOutcome(card: { pan: string; exp_month: string; exp_year: string }, now: number): CardOutcome {
  const known = byPan.get(card.pan);
  if (known) return { status: known.status, error_code: known.error_code, error_message: known.error_message };
  const today = new Date(now);
  const expiry = Number(card.exp_year) * 12 + Number(card.exp_month);
  if (expiry < today.getUTCFullYear() * 12 + today.getUTCMonth() + 1) {
    return { status: 'failed', error_code: 'expired_card', error_message: 'The card has expired.' };
  }
  return { status: 'executed', error_code: null, error_message: null };
}

/** The last four digits of a card number, the only part ever kept or shown. */
export function lastFour(pan: string): string {
  return pan.slice(-4);
}
