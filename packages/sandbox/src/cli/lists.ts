// The commands that read a running sandbox through its admin API, as tables for people or as the
// sandbox's JSON (--json): `transactions`, `deliveries` and `requests`.
import type { SandboxAdmin } from '../admin-client/client.js';
import { formatAmount } from '../format.js';
import type { LoggedRequest } from '../wire/requests.js';
import { adminCommand, type AdminCall } from './admin-command.js';
import { printable, UsageError } from './common.js';
import { table } from './table.js';
import { URL_LINE } from './usage.js';

const COMMON_LINES = `  --json                 print the sandbox's JSON instead of a table
${URL_LINE}
  --help                 this text`;

/** A listing: fetched, then printed as a table (or `empty` when there is nothing), or as the sandbox's JSON. */
function listing<T>(
  json: boolean | undefined,
  fetch: (admin: SandboxAdmin) => Promise<T[]>,
  render: (items: T[]) => string[],
  empty: string,
): AdminCall<T[]> {
  return {
    call: fetch,
    print: (items, io) => io.out(json ? JSON.stringify(items, null, 2) : items.length === 0 ? empty : render(items).join('\n')),
  };
}

const TRANSACTIONS_HELP = `Usage: pay-sandbox transactions [--json]

Lists every transaction the sandbox keeps, oldest first: id, kind, status, amount, merchant,
reference_id, creation time (schedule clock) and error code.

Options:
${COMMON_LINES}`;

/** `pay-sandbox transactions`. */
export const transactionsCommand = adminCommand({
  name: 'transactions',
  help: TRANSACTIONS_HELP,
  options: { json: { type: 'boolean' } },
  plan: ({ values }) =>
    listing(
      values.json,
      (admin) => admin.transactions(),
      (items) =>
        table(
          ['ID', 'KIND', 'STATUS', 'AMOUNT', 'MERCHANT', 'REFERENCE', 'CREATED', 'ERROR'],
          items.map((t) => [
            t.id,
            t.kind,
            t.status,
            formatAmount(t.payment.amount, t.payment.currency),
            t.merchant_id,
            t.reference_id,
            t.created_at,
            t.error_code,
          ]),
        ),
      '(no transactions)',
    ),
});

const DELIVERIES_HELP = `Usage: pay-sandbox deliveries [--transaction ID] [--json]

Lists the webhook attempts, oldest first: the transaction, the status announced, the attempt
number, when it was due and sent (schedule clock), the answer (HTTP status, or why there was
none; "due" while it is still to come) and the address.

Options:
  --transaction ID       only the attempts of this transaction
${COMMON_LINES}`;

/** `pay-sandbox deliveries [--transaction ID]`. */
export const deliveriesCommand = adminCommand({
  name: 'deliveries',
  help: DELIVERIES_HELP,
  options: { json: { type: 'boolean' }, transaction: { type: 'string' } },
  plan: ({ values }) =>
    listing(
      values.json,
      (admin) => admin.deliveries(values.transaction),
      (items) =>
        table(
          ['TRANSACTION', 'STATUS', 'ATTEMPT', 'DUE', 'SENT', 'ANSWER', 'URL'],
          items.map((d) => [
            d.transaction_id,
            d.status,
            d.attempt,
            d.due_at,
            d.sent_at,
            d.response_status ?? d.error ?? (d.sent_at === null ? 'due' : 'waiting'),
            d.url,
          ]),
        ),
      '(no webhook attempts)',
    ),
});

const REQUESTS_HELP = `Usage: pay-sandbox requests [--limit N] [--json]

Lists the requests to the service endpoints, newest first: when, the merchant named, method, path,
answer status, error code (and fault), the transaction; under a refused one, the field errors of a
400 (path: what is wrong) and the sandbox's hint about what went wrong. --json adds each body as
received (card data masked).

Options:
  --limit N              at most N requests (default 100; the sandbox keeps the newest 1000)
${COMMON_LINES}`;

/** `pay-sandbox requests [--limit N]`. */
export const requestsCommand = adminCommand({
  name: 'requests',
  help: REQUESTS_HELP,
  options: { json: { type: 'boolean' }, limit: { type: 'string' } },
  plan({ values }) {
    const { limit } = values;
    // A whole number is this command's to check; its range is the sandbox's to judge.
    if (limit !== undefined && (!/^[0-9]{1,9}$/.test(limit) || Number(limit) < 1))
      throw new UsageError('--limit must be a whole number, 1 or more', REQUESTS_HELP);
    return listing(
      values.json,
      (admin) => admin.requests(limit === undefined ? {} : { limit: Number(limit) }),
      renderRequests,
      '(no requests)',
    );
  },
});

function renderRequests(items: readonly LoggedRequest[]): string[] {
  const lines = table(
    ['SEQ', 'AT', 'MERCHANT', 'METHOD', 'PATH', 'STATUS', 'CODE', 'TRANSACTION'],
    items.map((r) => [
      r.seq,
      r.at,
      r.merchant_id,
      r.method,
      r.path,
      r.status ?? 'dropped',
      [r.code, r.fault && `fault=${r.fault}`].filter(Boolean).join(' ') || null,
      r.transaction_id,
    ]),
  );
  // Under each row, what a person reading a refusal wants most: where the body was wrong, and the hint.
  return [
    lines[0]!,
    ...items.flatMap((r, i) => [
      lines[i + 1]!,
      // A sandbox of an earlier version logs no field errors.
      ...(r.errors ?? []).map((e) => `    ${e.path === '' ? '' : `${printable(e.path)}: `}${printable(e.message)}`),
      ...(r.hint === null ? [] : [`    hint: ${printable(r.hint)}`]),
    ]),
  ];
}
