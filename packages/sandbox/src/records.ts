// Transactions as the sandbox keeps them, and the exact answer shapes of the interface
// (payin and payout, create and lookup), built field by field from the record.
import {
  minorUnitOf,
  type PayinCreateResponse,
  type PayinLookupResponse,
  type PayoutCreateResponse,
  type PayoutLookupResponse,
} from '@pay/schema';
import { FEE_PERCENT, PAYOUT_EXECUTION_SECONDS } from './wire/settings.js';
import type { SnapshotHistoryEntry, SnapshotTransaction } from './wire/snapshot.js';

/**
 * When the sandbox executes a payout still `new` by itself (schedule clock, ms): PAYOUT_EXECUTION_SECONDS
 * after its creation. Null for a payin, which only expires.
 */
export function executesAt(tx: Pick<Transaction, 'kind' | 'createdAt'>): number | null {
  return tx.kind === 'payout' ? tx.createdAt + PAYOUT_EXECUTION_SECONDS * 1000 : null;
}

/**
 * History entries kept per transaction (the newest): a status set over and over (an unknown status
 * is not terminal) or resent again and again cannot grow it without bound.
 */
export const MAX_HISTORY_KEPT = 100;

export type { Cause } from './wire/transactions.js';

/** A history entry in memory: the saved one, and its order among everything of its millisecond. */
interface HistoryEntry extends SnapshotHistoryEntry {
  /**
   * Orders it among everything else of the same millisecond (Schedule.tick); in memory only, so 0
   * for an entry loaded from a state file (which happened before anything since).
   */
  order: number;
}

/** A payin or payout in the sandbox's memory: as a state file saves it, its history in order. */
export interface Transaction extends Omit<SnapshotTransaction, 'history'> {
  history: HistoryEntry[];
}

/** A schedule-clock time as the service writes datetimes: ISO 8601, microseconds, no offset. */
export function serviceDateTime(ms: number): string {
  // A create writes the same two instants several times (now, and when it expires): the last two
  // written are kept rather than formatted again.
  if (ms === lastTimes[0]) return lastTexts[0]!;
  if (ms === lastTimes[1]) return lastTexts[1]!;
  const text = `${new Date(ms).toISOString().slice(0, 23)}000`;
  lastTimes[1] = lastTimes[0]!;
  lastTexts[1] = lastTexts[0]!;
  lastTimes[0] = ms;
  lastTexts[0] = text;
  return text;
}
const lastTimes = [Number.NaN, Number.NaN];
const lastTexts = ['', ''];

/**
 * The fee of an amount: FEE_PERCENT of it, rounded half up to the currency's minor unit (cents for
 * EUR, whole yen for JPY, thousandths for KWD; two decimals for a code outside the ISO 4217 list,
 * which only a restored state can hold), computed on the decimal digits (never through binary
 * floating point), so a fee never has more decimals than its currency.
 */
export function feeOf(digits: string, currency: string): number {
  const units = minorUnitOf(currency) ?? 2;
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(digits);
  if (m === null) return Number((Number(digits) * (FEE_PERCENT / 100)).toFixed(units));
  const fraction = m[2] ?? '';
  const scaled = BigInt(m[1]! + fraction);
  // fee in minor units = amount * FEE_PERCENT / 100 * 10^units, with FEE_PERCENT = 25/10
  const numerator = scaled * 25n * 10n ** BigInt(units);
  const denominator = 1000n * 10n ** BigInt(fraction.length);
  const minor = (numerator + denominator / 2n) / denominator;
  if (units === 0) return Number(minor);
  const scale = 10n ** BigInt(units);
  return Number(`${minor / scale}.${String(minor % scale).padStart(units, '0')}`);
}

// The answers are built property by property, in the interface's order, rather than by spreading
// shared parts into one literal: V8 copies a second spread through its slow path, which made each
// answer cost ten times what the rest of building it does.

/** What an answer carries beyond the fields every answer has. */
interface AnswerFields {
  method?: boolean;
  language?: boolean;
  nextAction?: boolean;
}

/**
 * id, reference_id, status, payment, [method], fee, [language], the times and error fields,
 * [next_action]: the order of the interface's tables.
 */
function answer(tx: Transaction, fields: AnswerFields): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: tx.id,
    reference_id: tx.referenceId,
    status: tx.status,
    payment: { amount: tx.amount, currency: tx.currency },
  };
  if (fields.method) out['method'] = tx.method;
  out['fee'] = tx.fee;
  if (fields.language) out['language'] = tx.language;
  const created = serviceDateTime(tx.createdAt);
  out['created_at'] = created;
  out['updated_at'] = tx.updatedAt === tx.createdAt ? created : serviceDateTime(tx.updatedAt);
  out['expires_at'] = serviceDateTime(tx.expiresAt);
  out['error_code'] = tx.errorCode;
  out['error_message'] = tx.errorMessage;
  if (fields.nextAction) out['next_action'] = tx.nextAction;
  return out;
}

/** The create answer of a payin (v2 with `method`, legacy without). */
export function payinCreateResponse(tx: Transaction): PayinCreateResponse {
  return answer(tx, { method: tx.api === 'v2', nextAction: true }) as unknown as PayinCreateResponse;
}

/** The lookup answer of a payin: `fee` and `language`, no `method`, no `next_action`. */
export function payinLookupResponse(tx: Transaction): PayinLookupResponse {
  return answer(tx, { language: true }) as unknown as PayinLookupResponse;
}

/** The create answer of a payout. */
export function payoutCreateResponse(tx: Transaction): PayoutCreateResponse {
  return answer(tx, { nextAction: true }) as unknown as PayoutCreateResponse;
}

/** The lookup answer of either kind. */
export function lookupResponse(tx: Transaction): PayinLookupResponse | PayoutLookupResponse {
  return tx.kind === 'payin' ? payinLookupResponse(tx) : (answer(tx, {}) as unknown as PayoutLookupResponse);
}

/** A transaction as the admin API shows it: the lookup record, its kind, merchant and card's last four digits. */
export function adminRecord(tx: Transaction) {
  return { kind: tx.kind, merchant_id: tx.merchantId, ...lookupResponse(tx), card_last4: tx.cardLast4 };
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
// Random bytes are drawn from the platform's CSPRNG a few kilobytes at a time: one call per id
// costs more than the rest of making the id.
const pool = new Uint8Array(4096);
let used = pool.length;

/** A random identifier with a prefix: `length` characters of base 32, from the platform's CSPRNG. */
export function randomId(prefix: string, length = 20): string {
  if (used + length > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let out = prefix;
  for (let i = 0; i < length; i++) out += ALPHABET[pool[used++]! & 31];
  return out;
}
