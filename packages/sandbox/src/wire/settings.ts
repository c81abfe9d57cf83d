// What the sandbox does on its own, as numbers a caller can count on: the fee it charges, when a
// transaction left alone expires or (a payout) is executed, and the currency of a legacy create
// that names none. A fact of the wire: a page or a test that shows or waits for one of them reads
// it here (`@pay/sandbox/admin` exports it without loading the server), never a copy.

/** The fee charged on an executed transaction: this percentage of the amount, same currency. */
export const FEE_PERCENT = 2.5;
/** A transaction still `new` this long after creation expires (schedule clock). */
export const EXPIRY_SECONDS = 30 * 60;
/** A payout still `new` this long after creation is executed by the sandbox (schedule clock). */
export const PAYOUT_EXECUTION_SECONDS = 60;
/** Currency of a legacy create-payin that gives none. */
export const DEFAULT_LEGACY_CURRENCY = 'EUR';
