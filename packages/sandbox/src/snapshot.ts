// A sandbox's state as a file: its transactions, their delivery log and the schedule clock, so a
// restart (`--state FILE`) goes on where it stopped: a payin left `new` still expires, a webhook
// still due is still sent. Merchants are not saved (they come from the command line, and a
// secret must never be written to disk); the request log and faults are not either.
//
// The file is plain JSON checked against a schema when loaded, so a hand-edited or truncated file
// is refused with the field path that is wrong, never half-loaded.
import { ERROR_MESSAGE, HTTP_URL_PATTERN, MAX_URL_LENGTH, validate } from '@pay/schema';
import { LATEST_TIME } from './limits.js';
import Type, { type Static } from 'typebox';
import { MAX_HISTORY_KEPT } from './records.js';
import { CAUSES } from './wire/transactions.js';
import type { SandboxSnapshot } from './wire/snapshot.js';
import type { State } from './state.js';

/** What identifies a state file, and its version. */
const SNAPSHOT_FORMAT: SandboxSnapshot['format'] = 'pay-sandbox-state';
const SNAPSHOT_VERSION: SandboxSnapshot['version'] = 1;

const Text = (max: number) => Type.String({ maxLength: max });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
// Times from 1970 to the end of year 9999: what the service's datetime format can write.
const Time = Type.Number({ minimum: 0, maximum: LATEST_TIME });
// A URL as the create endpoints take it: absolute http(s), within the sandbox's length limit.
const Url = Type.String({ maxLength: MAX_URL_LENGTH, pattern: HTTP_URL_PATTERN, [ERROR_MESSAGE]: 'must be an absolute http or https URL' });
const Amount = Type.Number({ minimum: 0, maximum: 1e30 });

// A history entry without its `order`, which means something only within one process.
const SavedHistoryEntry = Type.Object(
  {
    what: Type.Enum(['status', 'resend']),
    status: Text(32),
    at: Time,
    cause: Type.Enum(CAUSES),
  },
  { additionalProperties: false },
);

const SavedTransaction = Type.Object(
  {
    kind: Type.Union([Type.Literal('payin'), Type.Literal('payout')]),
    id: Type.String({ pattern: '^(pi|po)_[0-9a-z]{1,40}$' }),
    merchantId: Text(64),
    api: Type.Union([Type.Literal('v1'), Type.Literal('v2')]),
    referenceId: Nullable(Text(64)),
    status: Text(32),
    amount: Amount,
    amountDigits: Type.String({ pattern: '^[0-9]{1,30}(?:\\.[0-9]{1,30})?$' }),
    currency: Text(8),
    method: Nullable(Text(64)),
    language: Nullable(Text(64)),
    webhookUrl: Nullable(Url),
    redirectUrls: Type.Object(
      { success: Type.Optional(Url), fail: Type.Optional(Url), in_progress: Type.Optional(Url) },
      { additionalProperties: false },
    ),
    createdAt: Time,
    updatedAt: Time,
    expiresAt: Time,
    errorCode: Nullable(Text(255)),
    errorMessage: Nullable(Text(255)),
    fee: Nullable(Type.Object({ amount: Amount, currency: Text(8) }, { additionalProperties: false })),
    nextAction: Type.Object(
      {
        type: Text(32),
        url: Type.String({ maxLength: 4096, pattern: HTTP_URL_PATTERN, [ERROR_MESSAGE]: 'must be an absolute http or https URL' }),
      },
      { additionalProperties: false },
    ),
    cardToken: Nullable(Text(64)),
    cardTokenSpent: Type.Boolean(),
    cardLast4: Nullable(Type.String({ pattern: '^[0-9]{4}$' })),
    hiddenUntil: Time,
    customer: Text(512),
    history: Type.Array(SavedHistoryEntry, { maxItems: MAX_HISTORY_KEPT }),
  },
  { additionalProperties: false },
);

// The saved shapes and the live ones (Transaction, deliveries.ts's Attempt) are held together by
// the compiler: takeSnapshot and restoreSnapshot pass each to the other without a cast.
const SavedAttempt = Type.Object(
  {
    transactionId: Text(64),
    delivery: Type.Integer({ minimum: 1 }),
    status: Text(32),
    url: Url,
    attempt: Type.Integer({ minimum: 1, maximum: 100 }),
    dueAt: Time,
    sentAt: Nullable(Time),
    responseStatus: Nullable(Type.Integer({ minimum: 100, maximum: 999 })),
    error: Nullable(Text(255)),
  },
  { additionalProperties: false },
);

/** A state file, as its schema. */
const SnapshotSchema = Type.Object(
  {
    format: Type.Literal(SNAPSHOT_FORMAT),
    version: Type.Literal(SNAPSHOT_VERSION),
    /** When it was written, ISO 8601 (informative). */
    saved_at: Type.String({ maxLength: 64 }),
    /** How far the schedule clock was ahead of wall time, in ms (never past the end of year 9999). */
    clock_offset_ms: Type.Number({ minimum: 0, maximum: LATEST_TIME }),
    transactions: Type.Array(SavedTransaction, { maxItems: 1_000_000 }),
    deliveries: Type.Array(SavedAttempt, { maxItems: 10_000_000 }),
  },
  { additionalProperties: false },
);

export type { SandboxSnapshot } from './wire/snapshot.js';

// The wire type (what a client reads) and the schema's (what a file is checked against) are one:
// either failing to take the other is a compile error here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<Static<typeof SnapshotSchema>, SandboxSnapshot> = true;
void sameShape;

/**
 * Checks a parsed state file.
 *
 * @throws TypeError naming the first field paths that are wrong (at most five).
 */
export function parseSnapshot(value: unknown): SandboxSnapshot {
  const checked = validate(SnapshotSchema, value);
  if (checked.ok) return checked.value;
  const shown = checked.errors.slice(0, 5).map((e) => `${e.path || '(the file)'} ${e.message}`);
  throw new TypeError(`the state file is not a sandbox state (${SNAPSHOT_FORMAT} version ${SNAPSHOT_VERSION}): ${shown.join('; ')}`);
}

/** The state of a sandbox, as a state file holds it. */
export function takeSnapshot(state: State): SandboxSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    // When the file was written, for a person reading it: real time (it decides nothing).
    saved_at: new Date().toISOString(),
    clock_offset_ms: state.schedule.offset,
    transactions: [...state.transactions.values()].map((tx) => ({
      ...tx,
      redirectUrls: { ...tx.redirectUrls },
      history: tx.history.map(({ order: _order, ...entry }) => entry),
    })),
    deliveries: state.deliveries.saved(),
  };
}

/**
 * Loads a state file into an empty sandbox: its transactions (those of merchants it still has, up
 * to its cap, the newest kept), their delivery log, the clock, and what the clock still has to do
 * for them (expiry, payout execution, webhook attempts still due). Sends nothing by itself.
 *
 * @returns how many transactions were loaded and how many dropped (unknown merchant, over the cap).
 */
export function restoreSnapshot(state: State, snapshot: SandboxSnapshot): { loaded: number; dropped: number } {
  // What the schema cannot see: the clock it would set, and the names this sandbox has now.
  if (state.schedule.clock.now() + snapshot.clock_offset_ms > LATEST_TIME) {
    throw new TypeError('the state file is not usable: clock_offset_ms would put the schedule clock past the end of year 9999');
  }
  snapshot.transactions.forEach((tx, i) => {
    if (tx.webhookUrl !== null && !state.names.acceptsWebhookUrl(tx.webhookUrl)) {
      throw new TypeError(
        `the state file is not usable: transactions[${i}].webhookUrl must be an https URL (plain http only to loopback or allowHttpHosts)`,
      );
    }
  });
  state.schedule.setOffset(snapshot.clock_offset_ms);
  const known = snapshot.transactions.filter((tx) => state.merchants.has(tx.merchantId));
  const kept = known.slice(Math.max(0, known.length - state.maxTransactions));
  for (const saved of kept) state.restore({ ...saved, history: saved.history.map((entry) => ({ ...entry, order: 0 })) });
  state.deliveries.restore(snapshot.deliveries, (id) => {
    const tx = state.transactions.get(id);
    return tx === undefined ? undefined : { tx, merchant: state.merchants.get(tx.merchantId)! };
  });
  state.changed();
  return { loaded: kept.length, dropped: snapshot.transactions.length - kept.length };
}
