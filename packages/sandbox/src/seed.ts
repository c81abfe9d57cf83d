// Seed transactions: a known set of payins and payouts created when the sandbox starts, so a demo,
// a screenshot or a test begins from the same state every time (`--seed FILE`, `seed` option).
//
// A seed is plain data checked against a schema (field paths on error). Each entry is created as
// the endpoint would create it, then moved to its status; an entry whose reference_id the merchant
// already has is skipped, so a seed over a restored state (`--state`) adds nothing twice.
import { Amount, Currency, MAX_URL_LENGTH, MONEY_KEYWORD, PayinRedirectUrls, ReferenceId, validate } from '@pay/schema';
import { FIRST_STATUS } from '@pay/schema';
import Type, { type Static } from 'typebox';
import { DEFAULT_DECLINE } from './decline.js';
import { statusProblem } from './settable-status.js';
import { newTransaction, type CreateInput } from './endpoints.js';
import type { State } from './state.js';

const Name = Type.String({ minLength: 1, maxLength: 80 });
// A redirect URL exactly as the create endpoints take one (absolute http(s), the schema's maximum length).
const RedirectUrl = PayinRedirectUrls.properties.success;

/** One seed transaction. */
export const SeedTransaction = Type.Object(
  {
    /** `payin` or `payout`. */
    kind: Type.Union([Type.Literal('payin'), Type.Literal('payout')]),
    /** The merchant it belongs to; default: the sandbox's first merchant. */
    merchant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    reference_id: Type.Optional(ReferenceId),
    amount: Amount,
    currency: Currency,
    /** `card` gives a card payin (a push address); anything else the hosted page. */
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    /** The status to move it to after creation (left `new` when absent): see settable-status.ts. */
    status: Type.Optional(Type.String()),
    /** True to set a status outside the interface's on purpose (a client's test of one it does not know). */
    unknown_status: Type.Optional(Type.Boolean()),
    error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    error_message: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    customer: Type.Optional(
      Type.Object(
        { first_name: Name, last_name: Name, email: Type.String({ minLength: 3, maxLength: 255 }) },
        { additionalProperties: false },
      ),
    ),
    /** Where its webhooks go; none are sent without it (or a static address). */
    webhook_url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH })),
    /** Where the hosted page sends the customer: absolute http(s) URLs, as the create endpoints take them. */
    redirect_urls: Type.Optional(
      Type.Object({ success: Type.Optional(RedirectUrl), fail: Type.Optional(RedirectUrl) }, { additionalProperties: false }),
    ),
  },
  // The amount and currency obey the rule of a create's money (no more decimals than the currency).
  { additionalProperties: false, [MONEY_KEYWORD]: { amount: 'amount', currency: 'currency' } },
);

/** A seed file: `{"transactions": [...]}`, at most MAX_SEED_TRANSACTIONS. */
export const Seed = Type.Object({ transactions: Type.Array(SeedTransaction, { maxItems: 10_000 }) }, { additionalProperties: false });

/** A seed transaction, as checked. */
export type SeedTransaction = Static<typeof SeedTransaction>;
/** A seed file, as checked. */
export type Seed = Static<typeof Seed>;

/**
 * Checks a parsed seed file.
 *
 * @throws TypeError listing every field path that is wrong (at most ten).
 */
export function parseSeed(value: unknown): Seed {
  const checked = validate(Seed, value);
  // The schema checks the shape; which statuses may be set is the rule the admin API also follows.
  const errors = checked.ok ? statusErrors(checked.value) : checked.errors;
  if (checked.ok && errors.length === 0) return checked.value;
  const shown = errors.slice(0, 10).map((e) => `${e.path || '(the file)'} ${e.message}`);
  throw new TypeError(`the seed is not valid: ${shown.join('; ')}${errors.length > 10 ? '; ...' : ''}`);
}

/** How a seed entry asks for a status outside the interface's. */
const ON_PURPOSE = '"unknown_status": true to the entry';

/** Why an entry's status cannot be set (see settable-status.ts), or undefined; absent is `new`. */
function entryStatusProblem(entry: SeedTransaction): string | undefined {
  if (entry.status === undefined) return undefined;
  const problem = statusProblem(entry.status, entry.unknown_status === true, ON_PURPOSE);
  return problem === undefined ? undefined : `${problem} (leave it out for ${FIRST_STATUS})`;
}

/** A field error for each entry whose status the sandbox does not set. */
function statusErrors(seed: Seed): { path: string; message: string }[] {
  return seed.transactions.flatMap((entry, i) => {
    const problem = entryStatusProblem(entry);
    return problem === undefined ? [] : [{ path: `transactions.${i}.status`, message: problem }];
  });
}

/**
 * Creates a seed's transactions, each as its create endpoint would (webhook `new` included when it
 * has an address), then moves it to its status. `base` is the sandbox's base URL (for next_action).
 *
 * @returns how many were created and how many skipped (their reference_id already there).
 * @throws TypeError for an entry naming a merchant the sandbox does not have (nothing is created).
 */
export function applySeed(state: State, seed: Seed, base: string): { created: number; skipped: number } {
  const first = state.merchants.keys().next().value!;
  seed.transactions.forEach((entry, i) => {
    if (entry.merchant_id !== undefined && !state.merchants.has(entry.merchant_id)) {
      throw new TypeError(`seed transactions[${i}].merchant_id names no merchant of this sandbox`);
    }
    const problem = entryStatusProblem(entry);
    if (problem !== undefined) throw new TypeError(`seed transactions[${i}].status ${problem}`);
    const hook = entry.webhook_url;
    if (hook !== undefined && !state.names.acceptsWebhookUrl(hook)) {
      throw new TypeError(`seed transactions[${i}].webhook_url must be an https URL (plain http only to loopback or allowHttpHosts)`);
    }
    const refused = hook === undefined ? undefined : state.names.webhookProblem(hook, state.ports);
    if (refused !== undefined) throw new TypeError(`seed transactions[${i}].webhook_url is ${refused}`);
  });
  let created = 0;
  for (const entry of seed.transactions) {
    const merchantId = entry.merchant_id ?? first;
    if (entry.reference_id !== undefined && state.references.has(state.referenceKey(merchantId, entry.kind, entry.reference_id))) continue;
    const input: CreateInput = {
      ...(entry.reference_id === undefined ? {} : { reference_id: entry.reference_id }),
      payment: { amount: entry.amount, currency: entry.currency },
      ...(entry.method === undefined ? {} : { method: entry.method }),
      ...(entry.webhook_url === undefined ? {} : { webhook_url: entry.webhook_url }),
      ...(entry.redirect_urls === undefined ? {} : { redirect_urls: entry.redirect_urls }),
      customer: entry.customer ?? { first_name: 'Seed', last_name: 'Customer', email: 'seed@customer.example' },
    };
    const tx = newTransaction(state, { base, kind: entry.kind, api: 'v2', merchantId, input, lagMs: 0 });
    state.commit(tx, 'seed');
    if (entry.status !== undefined) {
      const error =
        entry.status === 'failed'
          ? { code: entry.error_code ?? DEFAULT_DECLINE.code, message: entry.error_message ?? DEFAULT_DECLINE.message }
          : undefined;
      state.transition(tx, entry.status, 'seed', error);
    }
    created++;
  }
  return { created, skipped: seed.transactions.length - created };
}
