// The journal's SQL names: every table and function lives in one configurable schema, with one
// configurable prefix (`pay_` by default), so it can share a database with the merchant's own
// tables. Names are checked once and quoted, never interpolated from anything else.

/** The quoted, qualified names of the journal's objects, and its advisory lock key. */
export interface Names {
  readonly schema: string;
  readonly migrations: string;
  readonly intents: string;
  readonly transactions: string;
  readonly events: string;
  readonly checks: string;
  readonly recordEvent: string;
  readonly recordCreated: string;
  readonly judge: string;
  /** The first migration's index of leases (dropped by the third, which covers queued intents too). */
  readonly intentsLeaseIndex: string;
  /** The text whose hash is the migration lock: one per (schema, prefix). */
  readonly lockKey: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * The names for a schema and a prefix.
 *
 * @throws TypeError when either is not a lower-case SQL identifier (letters, digits, `_`).
 */
export function namesFor(schema = 'public', prefix = 'pay_'): Names {
  if (typeof schema !== 'string' || !IDENTIFIER.test(schema) || schema.length > 40) {
    throw new TypeError('schema must be a lower-case SQL identifier (a-z, 0-9, _), at most 40 characters');
  }
  if (typeof prefix !== 'string' || (prefix !== '' && !IDENTIFIER.test(prefix)) || prefix.length > 20) {
    throw new TypeError('prefix must be empty or a lower-case SQL identifier (a-z, 0-9, _), at most 20 characters');
  }
  const q = (name: string) => `"${schema}"."${prefix}${name}"`;
  return {
    schema: `"${schema}"`,
    migrations: q('migrations'),
    intents: q('intents'),
    transactions: q('transactions'),
    events: q('events'),
    checks: q('checks'),
    recordEvent: q('record_event'),
    recordCreated: q('record_created'),
    judge: q('judge'),
    intentsLeaseIndex: q('intents_lease_until_idx'),
    lockKey: `@pay/journal:${schema}.${prefix}`,
  };
}
