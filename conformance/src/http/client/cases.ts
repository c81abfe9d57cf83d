// Client mode's cases as a table: each row is plain data saying which operation the SDK is asked
// to perform (a client command), what the runner sets up first, what the proxy does to the
// requests it matches (its own faults and answers), and what the SDK must answer. run.ts runs
// every row in order; every request on the wire is judged, and every create counted, whatever
// the row.
import type { TransactionKind } from '@pay/schema';
import type { Expected } from './answer.js';
import type { Rule } from './proxy.js';
import type { ClientCommand } from '../../types.js';

/**
 * The SDK's time limit for one HTTP attempt, given with each command (timeout_ms), where the case
 * loses no answer on purpose: far above a loopback exchange even on a loaded machine, so that a slow
 * answer is not taken for a lost one (a correct SDK's push would fail its case; a blindly re-sent
 * create would show in a case not looking for it, as it once did with 1.5 s in a loaded CI run).
 */
export const SDK_TIMEOUT_MS = 10_000;
/**
 * timeout_ms where the case waits it out or loses answers on purpose (every exactly-once case, and
 * the held push): short, so that a lost create is proven or found in seconds.
 */
export const SHORT_TIMEOUT_MS = 1500;
/** The SDK's time limit for a whole call, reconciliation included (total_timeout_ms). */
export const SDK_TOTAL_TIMEOUT_MS = 15_000;
/** The room the protocol gives a child past total_timeout_ms to answer a client command. */
const ANSWER_ROOM_MS = 5000;
/**
 * The protocol's limit for one client command: the SDK's whole call, and room to answer. It also
 * bounds every hold of the runner's proxy in the case, whatever the SDK sent. (A case with its own,
 * shorter total_timeout_ms has a shorter limit: commandLimitOf.)
 */
export const COMMAND_LIMIT_MS = SDK_TOTAL_TIMEOUT_MS + ANSWER_ROOM_MS;
/**
 * The timestamp tolerance of the service in client mode, shortened on both sides (tolerance_seconds)
 * so that proving a lost create dead takes seconds: three cases wait it out, and a correct SDK's
 * whole run must stay well under 30 s. Room for a create held past the SDK's time limit
 * (late-commit: it arrives at most 3 s after its whole-second x-timestamp) and a loaded machine's
 * delays: a request must still arrive within it.
 */
export const TOLERANCE_SECONDS = 4;
/** How long an accepted create may take to show in a lookup (settle_seconds); above every lag injected. */
export const SETTLE_SECONDS = 2;
/**
 * settle_seconds told in the settle-window case, and how long at most its record is missing from
 * lookups after it is created: until x-timestamp + tolerance + 5.8 s, 1.2 s before a correct SDK may
 * take a miss for proof (x-timestamp + tolerance + 1 + settle_seconds).
 */
const SETTLE_WINDOW_SECONDS = 6;
const SETTLE_WINDOW_LAG_MS = 6000;
/** How long lookups miss a record in the lagging case, at least. */
const LAG_MS = 1500;
/**
 * How long after its x-timestamp at most (until a lookup has missed it): 1.2 s before a correct SDK
 * may take a miss for proof (x-timestamp + tolerance + 1 + settle_seconds).
 */
const LAG_AT_MOST_MS = (TOLERANCE_SECONDS + 1 + SETTLE_SECONDS) * 1000 - 1200;
/** How long the proxy holds an answer in the timeout case: past the SDK's time limit by far. */
const HELD_MS = SHORT_TIMEOUT_MS + 2000;
/**
 * timeout_ms in the trickled-answer case, and how the answer trickles: its body in pieces
 * TRICKLE_PAUSE_MS apart, TRICKLE_PIECES of them, so that no read waits a tenth of the limit (a
 * loaded machine's stalls stay well inside it) and the whole answer takes three times the limit. A
 * correct SDK gives up at the limit and tries again (the case costs it about 1.1 s); one whose
 * limit bounds each read waits the 3.2 s for the whole body.
 */
const TRICKLE_TIMEOUT_MS = 1000;
const TRICKLE_PAUSE_MS = 80;
const TRICKLE_PIECES = 40;
/**
 * total_timeout_ms in the case whose lookups all fail after a lost create: short, since a correct
 * SDK spends all of it looking the create up before it answers outcome unknown, yet room for a
 * loaded machine to send the create first (at 600 ms an SDK could run out before it sent anything).
 */
const SHORT_TOTAL_TIMEOUT_MS = 1500;
/**
 * total_timeout_ms where every lookup is answered 503: room for a correct SDK's few retries
 * (0.7 s), and short enough that one retrying until the service is back is seen retrying past it.
 */
const RETRIES_TOTAL_TIMEOUT_MS = 2000;

/** A proxy's 404 page (a gateway's, not the service's JSON). */
const HTML_404 = { kind: 'answer', status: 404, contentType: 'text/html', body: '<html><body>404 Not Found</body></html>' } as const;

/** White space at both ends of values: an SDK sends them as given (the service's data, not the SDK's to clean). */
const withEdgeSpaces = (p: Record<string, unknown>): Record<string, unknown> => {
  const customer = p['customer'] as Record<string, unknown>;
  const address = customer['address'] as Record<string, unknown>;
  return {
    ...p,
    reference_id: ` ${p['reference_id'] as string}\t`,
    customer: {
      ...customer,
      first_name: `  ${customer['first_name'] as string}`,
      last_name: `${customer['last_name'] as string} `,
      address: { ...address, addr_line_2: ` ${address['addr_line_2'] as string} ` },
    },
    browser_data: { ...(p['browser_data'] as object), user_agent: ' Mozilla/5.0 (X11; Linux)\n' },
  };
};

/** The params without their reference_id: the interface makes it optional in every create. */
/**
 * Values at the bounds of the interface's field tables, each valid: a reference_id and a
 * customer.id of 64 characters, a last name of 80 with characters outside the Basic Multilingual
 * Plane (a length counts characters: 80 here, though JavaScript's .length says 82 and UTF-8 takes
 * far more bytes), a first name of 2, an email of 6, a phone number of 4, a city of 1, a zip of 3.
 */
const atBounds = (p: Record<string, unknown>): Record<string, unknown> => {
  const customer = p['customer'] as Record<string, unknown>;
  const address = customer['address'] as Record<string, unknown>;
  const ascii = (text: string, length: number) =>
    text
      .replace(/[^A-Za-z0-9]+/g, '-')
      .padEnd(length, '0')
      .slice(0, length);
  return {
    ...p,
    reference_id: ascii(p['reference_id'] as string, 64),
    customer: {
      ...customer,
      id: ascii(`customer ${customer['id'] as string}`, 64),
      first_name: 'Lí',
      last_name: `Ng 🌍🌏 ${'é'.repeat(74)}`,
      email: 'a@b.fr',
      phone: { country_code: '+1', number: '6123' },
      address: { ...address, city: 'Z', zip: '800' },
    },
  };
};

/** A reference_id one character past its bound (65): invalid, however an SDK would make it fit. */
const referenceTooLong = (p: Record<string, unknown>): Record<string, unknown> => ({
  ...p,
  reference_id: (p['reference_id'] as string)
    .replace(/[^A-Za-z0-9]+/g, '-')
    .padEnd(65, '0')
    .slice(0, 65),
});

const withoutReference = ({ reference_id: _given, ...rest }: Record<string, unknown>): Record<string, unknown> => rest;

/** The categories, by family. */
type ClientCategory = 'client_bytes' | 'client_answers' | 'client_errors' | 'client_exactly_once';

/** What the runner makes before the SDK's operation. */
type Setup =
  /** a payin (or payout) the lookups look up, with a hostile reference_id */
  | TransactionKind
  /** a card payin, whose next_action.url the push is sent to */
  | 'card-payin'
  /** the record the create's reference_id already names, with the same amount (the service answers 409) */
  | 'used-reference'
  /** the record the create's reference_id already names, another transaction with another amount (409 too) */
  | 'used-reference-other'
  /** nothing: a lookup by a reference_id no record has */
  | 'nothing';

/** One case of client mode. */
export interface ClientCase {
  category: ClientCategory;
  name: string;
  command: ClientCommand;
  description: string;
  /** the ids of the statements (statements.ts) this case judges */
  judges: readonly string[];
  setup?: Setup;
  /** client_create_payout: the payment-page variant (redirect_urls required) */
  paymentPage?: boolean;
  /** what the proxy does to the requests the rules match (forwarded untouched otherwise) */
  rules?: Rule[];
  /** the create's params as given to the SDK, changed from the usual hostile ones */
  params?: (params: Record<string, unknown>) => Record<string, unknown>;
  /**
   * settle_seconds told for this case (default SETTLE_SECONDS): 0 where the case makes no lookup
   * lag, so that waiting a lost create out takes no longer than it must
   */
  settleSeconds?: number;
  /** timeout_ms told for this case (default: timeoutOf's rule) */
  timeoutMs?: number;
  /**
   * total_timeout_ms told for this case (default SDK_TOTAL_TIMEOUT_MS): shorter where the case
   * checks that the SDK's whole call ends by it; the command's limit follows it (commandLimitOf)
   */
  totalTimeoutMs?: number;
  /**
   * The same command sent once before, under these rules, and judged the same way: the case is
   * about what the SDK does the second time (it must ask the service again; for a create, what
   * the first made is there before the second)
   */
  first?: Rule[];
  /**
   * What a wrong answer means in this case, where the proxy varies what the interface leaves free
   * (a status within 2xx, chunking, fraction digits, a body's shape): the mistake named in place
   * of a plain "wrong outcome" or "record misread", and why
   */
  misread?: { mistake: string; text: string };
  /**
   * base_url is the proxy's TLS listener (https on loopback, BASE_PATH), whose certificate is
   * self-signed: the SDK must refuse it
   */
  tls?: boolean;
  expect: Expected;
}

/** timeout_ms told for a case: its own, else short in the exactly-once cases and long elsewhere. */
export const timeoutOf = (c: ClientCase): number =>
  c.timeoutMs ?? (c.category === 'client_exactly_once' ? SHORT_TIMEOUT_MS : SDK_TIMEOUT_MS);

/** total_timeout_ms told for a case. */
export const totalTimeoutOf = (c: ClientCase): number => c.totalTimeoutMs ?? SDK_TOTAL_TIMEOUT_MS;

/** The protocol's limit for the case's command: its total_timeout_ms and room to answer. */
export const commandLimitOf = (c: ClientCase): number => totalTimeoutOf(c) + ANSWER_ROOM_MS;

const OK: Expected = { outcome: 'ok' };

/** A JSON error body as the sandbox writes one. */
const errorBody = (code: string, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error: { code, message, ...extra } });

/** Rewrites of a lookup's answer: what a merchant's SDK must read leniently. */
const withUnknownFields = (r: Record<string, unknown>) => ({
  ...r,
  risk: { score: 12, rules: ['velocity', 'geo'] },
  payment: { ...(r['payment'] as object), fx_rate: null },
  settlement_batch: 'b_2026_11',
});
const withUnknownStatus = (r: Record<string, unknown>) => ({ ...r, status: 'under_review' });
const datetimesAs = (edit: (t: string) => string) => (r: Record<string, unknown>) => {
  const out = { ...r };
  for (const k of ['created_at', 'updated_at', 'expires_at']) if (typeof out[k] === 'string') out[k] = edit(out[k] as string);
  return out;
};
const noFraction = datetimesAs((t) => t.replace(/\.[0-9]+/, ''));
/** One fractional digit, "…:38.5": half a second, as ISO 8601 reads any number of digits. */
const oneDigit = datetimesAs((t) => (/\.[0-9]+/.test(t) ? t.replace(/\.[0-9]+/, '.5') : `${t}.5`));
/** The record as a change of status leaves it: another status, updated a minute later. */
const statusChanged = (r: Record<string, unknown>) => {
  const updated = typeof r['updated_at'] === 'string' ? Date.parse(`${r['updated_at']}Z`) : Number.NaN;
  return {
    ...r,
    status: 'executed',
    ...(Number.isNaN(updated) ? {} : { updated_at: new Date(updated + 60_000).toISOString().slice(0, -1) }),
  };
};

const microseconds = datetimesAs((t) => t.replace(/\.([0-9]+)/, (_m, f: string) => `.${f.padEnd(6, '7').slice(0, 6)}`));

/** What a 2xx other than 200 taken for a failure means. */
const SUCCESS_REFUSED = {
  mistake: 'success_status_refused',
  text: 'took a 2xx answer other than 200 for a failure: the interface does not say which 2xx status an endpoint answers (Endpoints, rule 4), and every 2xx is a success whose body is the record',
};

/**
 * Header lines as another server writes them: names in title case, Content-Type last after
 * headers the interface does not list, no space after one colon. Header names are
 * case-insensitive and their order means nothing (RFC 9110, section 5), and the interface names no
 * response header at all.
 */
const titleCaseHead = (body: Buffer): string[] => [
  `Content-Length: ${body.length}`,
  'X-Request-Id: 7d0c5e1a',
  'Cache-Control: no-store',
  `Date: ${new Date().toUTCString()}`,
  'Connection: close',
  'Content-Type:application/json',
];
/**
 * Neither Content-Length nor chunked framing: the body ends when the connection closes. The names
 * in lower case, as every other answer has them, so that the case is about the framing alone.
 */
const closeDelimitedHead = (): string[] => ['content-type: application/json', `date: ${new Date().toUTCString()}`, 'connection: close'];

/** A lookup by id of the payin made first. */
const getPayin = (
  category: ClientCategory,
  name: string,
  description: string,
  rules: Rule[],
  expect: Expected,
  judges: readonly string[],
): ClientCase => ({
  category,
  name,
  judges,
  command: 'client_get_payin',
  setup: 'payin',
  description,
  rules,
  expect,
});

/** A v2 payin create under a fault or answer of the proxy's. */
const createPayin = (
  category: ClientCategory,
  name: string,
  description: string,
  rules: Rule[],
  expect: Expected,
  judges: readonly string[],
): ClientCase => ({
  category,
  name,
  judges,
  command: 'client_create_payin',
  description,
  rules,
  expect,
});

/** Every case, in the order they run. */
export const CLIENT_CASES: readonly ClientCase[] = [
  // --- exact bytes and URLs, every operation, hostile but valid data -----------------------------
  {
    category: 'client_bytes',
    name: 'create-payin-v2',
    judges: ['url-create', 'create-body', 'strings-as-given', 'amount-number', 'sign-string', 'create-answer'],
    command: 'client_create_payin',
    description:
      'create payin v2 with non-ASCII, quotes, a backslash, "</script>", U+2028, an emoji and characters NFKC rewrites ("ﬁ", "１２", "Ⅻ", "ｶﾅ", "²") in its strings, a reference_id with reserved and non-ASCII characters and the amount "149.90": POST …/payins/ exactly, the exact bytes signed and sent, the amount digit for digit',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'create-payin-whitespace',
    judges: ['strings-as-given'],
    command: 'client_create_payin',
    params: withEdgeSpaces,
    description:
      'create payin v2 whose values have white space at their ends (a reference_id with a space before and a tab after, names, an address line, a user agent ending in a newline): sent as given, never trimmed',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'create-payin-legacy',
    judges: ['url-create', 'create-body', 'create-answer'],
    command: 'client_create_payin_legacy',
    description: 'create payin through the legacy endpoint (POST /v1/merchants/payins/), amount "10.10"',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'create-payout',
    judges: ['url-create', 'create-body', 'create-answer'],
    command: 'client_create_payout',
    description: 'create payout v2 without the payment page, amount "1250.50"',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'create-payout-payment-page',
    judges: ['url-create', 'create-body'],
    command: 'client_create_payout',
    paymentPage: true,
    description: 'create payout v2 for the payment page (redirect_urls, one of them with a query)',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'get-payin',
    judges: ['url-lookup-id', 'sign-exact-body', 'lookup-answer'],
    command: 'client_get_payin',
    setup: 'payin',
    description: 'payin lookup by id: GET …/payins/<id>, no trailing slash, an empty body signed',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'get-payin-by-reference',
    judges: ['url-lookup-reference', 'sign-exact-url', 'lookup-answer'],
    command: 'client_get_payin_by_reference',
    setup: 'payin',
    description:
      'payin lookup by a reference_id with " /?#&=+%", "ä" and "€": GET …/payins/?reference_id=<percent-encoded>, signed exactly as called',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'get-payout',
    judges: ['url-lookup-id', 'lookup-answer'],
    command: 'client_get_payout',
    setup: 'payout',
    description: 'payout lookup by id',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'get-payout-by-reference',
    judges: ['url-lookup-reference', 'sign-exact-url', 'lookup-answer'],
    command: 'client_get_payout_by_reference',
    setup: 'payout',
    description: 'payout lookup by a hostile reference_id, percent-encoded',
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'push-card',
    judges: ['url-push', 'card-push-body', 'sign-simplified', 'push-answer'],
    command: 'client_push_card',
    setup: 'card-payin',
    description:
      "card push to the address a card payin's create answered, signed with x-simplified-signature (merchant id + timestamp + payin id)",
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'tls-untrusted-certificate',
    judges: ['tls-verified'],
    command: 'client_get_payin',
    setup: 'payin',
    tls: true,
    description:
      'payin lookup with an https base_url on loopback whose certificate is self-signed (made for the run, for 127.0.0.1): the certificate refused, a network error, and no request through the handshake',
    expect: { outcome: 'error', kind: 'network' },
  },
  {
    category: 'client_bytes',
    name: 'create-payin-at-bounds',
    judges: ['field-bounds'],
    command: 'client_create_payin',
    params: atBounds,
    description:
      'create payin v2 whose values sit on the bounds of the field tables, every one valid: a 64-character reference_id and customer.id, an 80-character last name with two emoji (a length counts characters, not UTF-16 units or bytes), a 2-character first name, a 6-character email, a 4-digit phone number, a 1-character city: sent as given, never refused',
    misread: {
      mistake: 'valid_value_refused',
      text: "refused a value the interface allows: its field tables' bounds are inclusive ([2..80] takes 2 and 80 characters) and count characters (code points), not UTF-16 units (JavaScript's .length counts an emoji as 2) or UTF-8 bytes; check them that way, or leave them to the service",
    },
    expect: OK,
  },
  {
    category: 'client_bytes',
    name: 'create-payin-reference-too-long',
    judges: ['field-bounds', 'kind-invalid-request', 'strings-as-given'],
    command: 'client_create_payin',
    params: referenceTooLong,
    description:
      'create payin v2 with a reference_id of 65 characters, one past its bound: refused by the SDK before sending (invalid_request), or sent as given and refused by the service (api, 400); never cut to fit, and nothing created',
    expect: { outcome: 'error', kind: 'invalid_request', or: { kind: 'api', status: 400 } },
  },

  // --- answers the SDK must read ------------------------------------------------------------------
  getPayin(
    'client_answers',
    'unknown-fields',
    'a lookup answered with fields the interface does not list (top level and inside payment): read, not refused',
    [{ on: 'lookup-id', action: { kind: 'rewrite', rewrite: withUnknownFields } }],
    OK,
    ['fields-open'],
  ),
  getPayin(
    'client_answers',
    'unknown-status',
    'a lookup answered with a status the interface does not list ("under_review"): passed through as it is',
    [{ on: 'lookup-id', action: { kind: 'rewrite', rewrite: withUnknownStatus } }],
    OK,
    ['status-open'],
  ),
  getPayin(
    'client_answers',
    'datetimes-without-fraction',
    'a lookup whose datetimes have no fractional seconds ("2026-11-26T14:47:45"): read as UTC',
    [{ on: 'lookup-id', action: { kind: 'rewrite', rewrite: noFraction } }],
    OK,
    ['datetime-fraction', 'datetime-utc'],
  ),
  getPayin(
    'client_answers',
    'datetimes-microseconds',
    'a lookup whose datetimes have six fractional digits: read as UTC, to the millisecond',
    [{ on: 'lookup-id', action: { kind: 'rewrite', rewrite: microseconds } }],
    OK,
    ['datetime-fraction', 'datetime-utc'],
  ),
  createPayin(
    'client_answers',
    'create-answer-unknown',
    'a create answered with unknown fields and an unknown status: the record, not an error',
    [{ on: 'create', action: { kind: 'rewrite', rewrite: (r) => withUnknownStatus(withUnknownFields(r)) } }],
    OK,
    ['fields-open', 'status-open', 'create-answer'],
  ),
  // What the interface leaves to the service, varied: "Success and failure HTTP status codes of
  // every endpoint: not shown" (Endpoints, rule 4), datetimes "ISO 8601 with fractional seconds"
  // with no number of digits (Resources), bodies that "are JSON" in whatever HTTP framing, and a
  // record whose status changes ("States and transitions").
  {
    ...createPayin(
      'client_answers',
      'create-201',
      'a create answered 201 with the record: the interface does not say which 2xx a create answers, and any 2xx is a success',
      [{ on: 'create', action: { kind: 'rewrite', status: 201, rewrite: (r) => r } }],
      OK,
      ['status-codes'],
    ),
    misread: SUCCESS_REFUSED,
  },
  {
    category: 'client_answers',
    name: 'lookup-202',
    judges: ['status-codes'],
    command: 'client_get_payin_by_reference',
    setup: 'payin',
    description: 'a lookup by reference_id answered 202 with the record: any 2xx is a success',
    rules: [{ on: 'lookup-ref', action: { kind: 'rewrite', status: 202, rewrite: (r) => r } }],
    misread: SUCCESS_REFUSED,
    expect: OK,
  },
  {
    category: 'client_answers',
    name: 'utf8-split-across-chunks',
    judges: ['body-framing'],
    command: 'client_get_payin_by_reference',
    setup: 'payin',
    description:
      'a lookup answered chunked, every multi-byte UTF-8 character of the record (its reference_id has "ä" and "€") split across two chunks: the bytes joined, then decoded',
    rules: [{ on: 'lookup-ref', action: { kind: 'split_utf8' } }],
    misread: {
      mistake: 'utf8_decoded_per_chunk',
      text: 'decoded the answer chunk by chunk: a UTF-8 character split across two chunks (HTTP lets the service frame a body in any chunks) became replacement characters; join the bytes, then decode them once (a Buffer.concat, a StringDecoder or setEncoding, response.read())',
    },
    expect: OK,
  },
  {
    ...getPayin(
      'client_answers',
      'datetimes-one-digit',
      'a lookup whose datetimes have one fractional digit ("2026-11-26T14:47:38.5"): half a second, read as UTC',
      [{ on: 'lookup-id', action: { kind: 'rewrite', rewrite: oneDigit } }],
      OK,
      ['datetime-fraction'],
    ),
    misread: {
      mistake: 'datetime_fraction_misread',
      text: 'misread a datetime\'s fraction of a second: ".5" is half a second (500 ms), as ".50" and ".500000" are; the interface gives no number of digits, so read them as a fraction, not as a count of milliseconds or microseconds',
    },
  },
  {
    ...getPayin(
      'client_answers',
      'error-object-in-200',
      'a lookup answered 200 with a JSON error object ({"error":{…}}), not a record: an invalid response, never taken for the record',
      [
        {
          on: 'lookup-id',
          action: {
            kind: 'answer',
            status: 200,
            contentType: 'application/json',
            body: errorBody('internal_error', 'the service could not read the record'),
          },
        },
      ],
      { outcome: 'error', kind: 'invalid_response' },
      ['kind-invalid-response', 'error-shape'],
    ),
    misread: {
      mistake: 'json_taken_for_record',
      text: 'took a 2xx JSON answer for the record although it is not one (an error object, no id): check that a 2xx is the record the interface describes before returning it, and report an invalid response otherwise',
    },
  },
  {
    ...getPayin(
      'client_answers',
      'status-changed',
      'the same payin looked up twice, its status changed in between (the second answer says "executed", updated a minute later): the second lookup asks the service again and answers the new status',
      [{ on: 'lookup-id', action: { kind: 'rewrite', rewrite: statusChanged } }],
      OK,
      ['anew', 'status-open'],
    ),
    first: [],
    misread: {
      mistake: 'lookup_cached',
      text: "answered a lookup from a cache: the record's status changed in the service between two lookups, and the SDK answered the old one; a record changes (its status, above all), so every lookup asks the service",
    },
  },
  // The HTTP around the record, which the interface leaves to the service (and to whatever stands
  // in front of it): header lines in any case and order, any spelling of a JSON content type, a
  // body framed by the connection's close.
  {
    ...getPayin(
      'client_answers',
      'header-names-in-any-case',
      'a lookup answered with header lines as another server writes them: "Content-Type" and "Content-Length" in title case, Content-Type last after headers the interface does not list, no space after its colon: header names are case-insensitive, in any order',
      [{ on: 'lookup-id', action: { kind: 'raw', head: titleCaseHead } }],
      OK,
      ['header-names'],
    ),
    misread: {
      mistake: 'header_name_case',
      text: 'missed a header because of the case of its name: the service sent "Content-Type", and the SDK looked for "content-type" in a map of the names as sent (a dict of getheaders(), an object of rawHeaders); header names are case-insensitive, so read them through a case-insensitive map (response.getheader(), message.headers, Headers) or lower-case the names first',
    },
  },
  {
    ...getPayin(
      'client_answers',
      'content-type-spelling',
      'a lookup answered "Content-Type: application/json;charset=UTF-8" (no space, the charset in capitals, as Spring writes it): JSON, as "application/json" and "application/json; charset=utf-8" are',
      [{ on: 'lookup-id', action: { kind: 'content_type', contentType: 'application/json;charset=UTF-8' } }],
      OK,
      ['answer-content-type'],
    ),
    misread: {
      mistake: 'content_type_compared_exactly',
      text: 'took a JSON answer for something else because its Content-Type is spelt otherwise ("application/json;charset=UTF-8"): the interface says only that bodies are JSON, and a media type and its charset are case-insensitive, with or without parameters and spaces; compare the media type alone, case-insensitively (the part before ";"), never the whole header with known spellings',
    },
  },
  {
    ...getPayin(
      'client_answers',
      'body-until-close',
      'a lookup answered with neither Content-Length nor chunked framing, and "Connection: close": the body ends when the connection closes, and is the record',
      [{ on: 'lookup-id', action: { kind: 'raw', head: closeDelimitedHead } }],
      OK,
      ['body-framing'],
    ),
    misread: {
      mistake: 'body_length_assumed',
      text: 'read the body by its Content-Length (none: taken as 0) although the answer had none: without Content-Length or chunked framing, a body ends when the connection closes (HTTP/1.1 keeps that framing); read to the end of the body (response.read(), every data event until end), never a length the service did not send',
    },
  },

  // --- errors the SDK must tell apart -----------------------------------------------------------
  getPayin(
    'client_errors',
    'unauthorised-expired',
    'a lookup answered 401 {"error":{"code":"expired"}}: an authentication error with the reason',
    [
      {
        on: 'lookup-id',
        action: {
          kind: 'answer',
          status: 401,
          contentType: 'application/json',
          body: errorBody('expired', 'x-timestamp is more than the tolerance away from the server time'),
        },
      },
    ],
    { outcome: 'error', kind: 'authentication', status: 401, code: 'expired' },
    ['expired', 'kind-authentication'],
  ),
  {
    category: 'client_errors',
    name: 'not-found',
    judges: ['kind-not-found'],
    command: 'client_get_payin_by_reference',
    setup: 'nothing',
    description: "a lookup by a reference_id no record has: the service's 404 is a not-found error",
    expect: { outcome: 'error', kind: 'not_found', status: 404 },
  },
  createPayin(
    'client_errors',
    'bad-request-field-paths',
    'a create answered 400 with field paths: an API error with the paths, and nothing created',
    [
      {
        on: 'create',
        action: {
          kind: 'answer',
          status: 400,
          contentType: 'application/json',
          body: errorBody('invalid_request', 'the body does not match the schema', {
            errors: [
              { path: 'customer.email', message: 'must be an email address' },
              { path: 'payment.amount', message: 'must be positive' },
            ],
          }),
        },
      },
    ],
    { outcome: 'error', kind: 'api', status: 400, paths: ['customer.email', 'payment.amount'] },
    ['kind-api', 'error-shape'],
  ),
  {
    ...getPayin(
      'client_errors',
      'server-error',
      `every lookup answered 503: an API error with the status (after any retries, all within total_timeout_ms, here ${RETRIES_TOTAL_TIMEOUT_MS} ms), never not-found`,
      [
        {
          on: 'lookup-id',
          action: { kind: 'answer', status: 503, contentType: 'application/json', body: errorBody('unavailable', 'try again later') },
        },
      ],
      { outcome: 'error', kind: 'api', status: 503 },
      ['kind-api', 'error-shape', 'status-codes', 'total-timeout'],
    ),
    // Retries that go on until the service is back, past the call's own limit, show here.
    totalTimeoutMs: RETRIES_TOTAL_TIMEOUT_MS,
  },
  getPayin(
    'client_errors',
    'html-page',
    'a lookup answered 200 with an HTML page (a captive portal, a maintenance page): an invalid response, not a record',
    [
      {
        on: 'lookup-id',
        action: { kind: 'answer', status: 200, contentType: 'text/html', body: '<!doctype html><html><body>Maintenance</body></html>' },
      },
    ],
    { outcome: 'error', kind: 'invalid_response' },
    ['kind-invalid-response', 'error-shape'],
  ),
  {
    category: 'client_errors',
    name: 'html-404',
    judges: ['kind-api', 'error-shape'],
    command: 'client_get_payin_by_reference',
    setup: 'payin',
    description: 'a lookup answered 404 with an HTML page (a proxy\'s, not the service\'s): an API error, never read as "no such record"',
    rules: [{ on: 'lookup-ref', action: HTML_404 }],
    expect: { outcome: 'error', kind: 'api', status: 404 },
  },
  getPayin(
    'client_errors',
    'truncated-body',
    'every lookup answered 200 with a body cut off before its Content-Length: a network error, not a record',
    [{ on: 'lookup-id', action: { kind: 'truncate' } }],
    { outcome: 'error', kind: 'network' },
    ['kind-network'],
  ),
  getPayin(
    'client_errors',
    'redirect-lookup',
    'a lookup answered 302 with a Location: not followed (the signature is for the URL called), an API error with the status',
    [{ on: 'lookup-id', action: { kind: 'redirect', status: 302 } }],
    { outcome: 'error', kind: 'api', status: 302 },
    ['sign-exact-url', 'kind-api'],
  ),
  createPayin(
    'client_errors',
    'redirect-create',
    'a create answered 307 with a Location: not followed (a create is never re-sent elsewhere), an API error, nothing created',
    [{ on: 'create', action: { kind: 'redirect', status: 307 } }],
    { outcome: 'error', kind: 'api', status: 307 },
    ['sign-exact-url', 'kind-api'],
  ),
  {
    category: 'client_errors',
    name: 'answer-past-timeout',
    judges: ['timeout-attempt', 'kind-timeout'],
    command: 'client_push_card',
    setup: 'card-payin',
    description: `a card push whose answer the service holds ${HELD_MS} ms, past the SDK's time limit (timeout_ms ${SHORT_TIMEOUT_MS}): a timeout error, not a network error and never a wait for the answer (a push is not sent again)`,
    rules: [{ on: 'push', action: { kind: 'hold_answer', ms: HELD_MS } }],
    timeoutMs: SHORT_TIMEOUT_MS,
    expect: { outcome: 'error', kind: 'timeout' },
  },
  {
    ...getPayin(
      'client_errors',
      'answer-trickled-past-timeout',
      `a lookup whose status line and headers come at once and whose body then trickles in ${TRICKLE_PIECES} pieces ${TRICKLE_PAUSE_MS} ms apart, the whole answer ${TRICKLE_PIECES * TRICKLE_PAUSE_MS} ms, past the SDK's time limit (timeout_ms ${TRICKLE_TIMEOUT_MS}) though no single read waits that long; any attempt after it is answered at once: the first attempt given up at the limit, never read to its end (the record, from a retry, or a timeout error)`,
      [{ on: 'lookup-id', count: 1, action: { kind: 'trickle', pieces: TRICKLE_PIECES, pauseMs: TRICKLE_PAUSE_MS } }],
      { outcome: 'ok', orTimeout: true },
      ['timeout-attempt', 'kind-timeout'],
    ),
    timeoutMs: TRICKLE_TIMEOUT_MS,
  },
  // "Error response body shape and HTTP status codes for rejected requests: not shown" (Errors).
  {
    ...createPayin(
      'client_errors',
      'refused-422-other-body',
      'a create answered 422 with a JSON body of another shape ({"message":…}, no "error" object): an API error with the status, and nothing created',
      [
        {
          on: 'create',
          action: {
            kind: 'answer',
            status: 422,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'payment.amount is above the limit of this merchant' }),
          },
        },
      ],
      { outcome: 'error', kind: 'api', status: 422 },
      ['error-shape', 'status-codes', 'kind-api'],
    ),
    misread: {
      mistake: 'error_body_assumed',
      text: 'failed on an error answer whose body has another shape (a 422 with {"message":…}, no "error" object): the interface shows neither the status nor the body of a refusal, so read error.code and its paths only when they are there, and report the status whatever the body',
    },
  },

  // --- exactly once under the runner's faults -----------------------------------------------------
  createPayin(
    'client_exactly_once',
    'lost-after-commit',
    'the service creates the payin and the connection closes before its answer: found by its reference_id, not sent again',
    [{ on: 'create', count: 1, action: { kind: 'drop_after_commit' } }],
    OK,
    ['created-once'],
  ),
  {
    ...createPayin(
      'client_exactly_once',
      'dropped-before-commit',
      'the connection closes before the create reaches the service: sent again only once the first attempt is proven dead (a lookup sent from its x-timestamp + tolerance + 1 + settle_seconds, here 0, on misses), or outcome unknown',
      [{ on: 'create', count: 1, action: { kind: 'drop_before_commit' } }],
      { outcome: 'ok', orUnknown: true },
      ['created-once'],
    ),
    settleSeconds: 0,
  },
  createPayin(
    'client_exactly_once',
    'status-500-after-commit',
    'the service creates the payin, and the SDK gets a 500: found by its reference_id, not sent again',
    [{ on: 'create', count: 1, action: { kind: 'status_after_commit', status: 500 } }],
    OK,
    ['created-once'],
  ),
  createPayin(
    'client_exactly_once',
    'late-commit',
    `the create reaches the service ${SHORT_TIMEOUT_MS + 500} ms late, past the SDK's time limit (timeout_ms ${SHORT_TIMEOUT_MS}): lookups miss it at first; found once it commits, never sent again while it may`,
    [{ on: 'create', count: 1, action: { kind: 'late_commit', ms: SHORT_TIMEOUT_MS + 500 } }],
    OK,
    ['created-once', 'timeout-attempt'],
  ),
  createPayin(
    'client_exactly_once',
    'lookups-lag',
    `the service creates the payin, its answer is lost, and lookups miss it for ${LAG_MS} ms, and after that until one has missed it (${LAG_AT_MOST_MS} ms past its x-timestamp at most): a miss is no proof; found, not sent again`,
    // Until a lookup has missed: an SDK that takes a miss for proof, run late by a loaded machine,
    // would otherwise look only once the record shows, and pass.
    [{ on: 'create', count: 1, action: { kind: 'lookup_lag', ms: LAG_MS, dropAnswer: true, atMostMs: LAG_AT_MOST_MS } }],
    OK,
    ['created-once'],
  ),
  {
    category: 'client_exactly_once',
    name: 'reference-in-use',
    judges: ['reference-in-use'],
    command: 'client_create_payin',
    setup: 'used-reference',
    description:
      'the reference_id already names a payin of the same amount (an earlier attempt, say before a crash): the service answers 409; the existing payin is the result, never "failed"',
    expect: OK,
  },
  {
    category: 'client_exactly_once',
    name: 'reference-in-use-other-amount',
    judges: ['reference-in-use'],
    command: 'client_create_payin',
    setup: 'used-reference-other',
    description:
      "the reference_id already names another payin, of another amount: the service answers 409, and the record a lookup finds is not this create's; an API error (409), never that record, and nothing created",
    expect: { outcome: 'error', kind: 'api', status: 409 },
  },
  {
    ...createPayin(
      'client_exactly_once',
      'settle-window',
      `the create is held until just before its x-timestamp + tolerance, then created, its answer lost, and lookups miss it until two made from x-timestamp + tolerance + 1 on have missed it, for ${SETTLE_WINDOW_LAG_MS} ms at most (settle_seconds ${SETTLE_WINDOW_SECONDS} s): a miss at x-timestamp + tolerance + 1 proves nothing yet; found, not sent again`,
      [
        {
          on: 'create',
          count: 1,
          action: { kind: 'commit_at_deadline', toleranceSeconds: TOLERANCE_SECONDS, lagMs: SETTLE_WINDOW_LAG_MS },
        },
      ],
      OK,
      ['created-once'],
    ),
    // The record shows once two lookups from x-timestamp + tolerance + 1 on have missed it (a
    // correct SDK's next lookup finds it), and 5.8 s past x-timestamp + tolerance at the latest: an SDK
    // that forgets settle_seconds takes that miss for proof and sends again, however late a loaded
    // machine runs it within those 4.8 s. With the record shown at a fixed 3.5 s (2.5 s of room),
    // such an SDK starved on a loaded machine looked only once it showed, and passed.
    settleSeconds: SETTLE_WINDOW_SECONDS,
  },
  {
    ...createPayin(
      'client_exactly_once',
      'html-404-after-lost-answer',
      "the service creates the payin, its answer is lost, and lookups by reference_id get a proxy's HTML 404 until past the time a miss would prove it dead: no proof of anything; found once lookups reach the service, not sent again",
      [
        { on: 'create', count: 1, action: { kind: 'drop_after_commit' } },
        // Until two lookups from x-timestamp + tolerance + 1 on (settle_seconds 0), when a miss would
        // prove it dead, have got the page: the first to come after that point may have been sent
        // before it; the second was sent after the first was answered. Counted, not timed: with a
        // page until a fixed 0.8 s past that point, a lookup sent at it and run late by a loaded
        // machine reached the service, found the record, and such an SDK passed.
        { on: 'lookup-ref', outlasts: { secondsAfterCreate: TOLERANCE_SECONDS + 1, times: 2 }, action: HTML_404 },
      ],
      OK,
      ['created-once', 'error-shape'],
    ),
    settleSeconds: 0,
  },
  {
    category: 'client_exactly_once',
    name: 'push-lost-after-commit',
    judges: ['push-once', 'kind-network'],
    command: 'client_push_card',
    setup: 'card-payin',
    description:
      'a card push the service handles, its answer lost: a network error, and the card never sent again (the push address is single-use; a re-send sends the card data twice)',
    rules: [{ on: 'push', count: 1, action: { kind: 'drop_after_commit' } }],
    expect: { outcome: 'error', kind: 'network' },
  },
  {
    category: 'client_exactly_once',
    name: 'payout-lost-after-commit',
    judges: ['created-once'],
    command: 'client_create_payout',
    description: 'a payout created, its answer lost: found by its reference_id, not sent again',
    rules: [{ on: 'create', count: 1, action: { kind: 'drop_after_commit' } }],
    expect: OK,
  },
  {
    category: 'client_exactly_once',
    name: 'legacy-lost-after-commit',
    judges: ['created-once'],
    command: 'client_create_payin_legacy',
    description: 'a legacy create, its answer lost: found by its reference_id (v2 lookup), not sent again',
    rules: [{ on: 'create', count: 1, action: { kind: 'drop_after_commit' } }],
    expect: OK,
  },
  {
    ...createPayin(
      'client_exactly_once',
      'lost-after-commit-no-reference',
      'a create given no reference_id (the interface makes it optional), its answer lost after the service created the payin: never sent again as a new payin; found by the reference_id the SDK made for it (a UUID, say), or outcome unknown',
      [{ on: 'create', count: 1, action: { kind: 'drop_after_commit' } }],
      { outcome: 'ok', orUnknown: true },
      ['reference-optional', 'created-once'],
    ),
    params: withoutReference,
  },
  {
    ...createPayin(
      'client_exactly_once',
      'lookups-fail-past-total',
      `the service creates the payin, its answer is lost, and every lookup is answered 503; total_timeout_ms is ${SHORT_TOTAL_TIMEOUT_MS}: outcome unknown by then, never a wait past it`,
      [
        { on: 'create', count: 1, action: { kind: 'drop_after_commit' } },
        {
          on: 'lookup-ref',
          action: { kind: 'answer', status: 503, contentType: 'application/json', body: errorBody('unavailable', 'try again later') },
        },
      ],
      { outcome: 'unknown' },
      ['total-timeout', 'created-once'],
    ),
    totalTimeoutMs: SHORT_TOTAL_TIMEOUT_MS,
  },
  createPayin(
    'client_exactly_once',
    'gateway-504-after-commit',
    "the service creates the payin, and a gateway in front of it answers 504 with its own HTML page: a lost answer (a gateway's 5xx says nothing of whether the create went through), found by its reference_id, not sent again",
    [{ on: 'create', count: 1, action: { kind: 'gateway_after_commit', status: 504 } }],
    OK,
    ['created-once', 'error-shape'],
  ),
  {
    ...createPayin(
      'client_exactly_once',
      'kept-alive-closed',
      'the same create sent twice: the first answered on a connection kept alive; the second, when sent on that connection, has it closed with no answer before the service reads it (as when an idle timeout runs out as a request comes): a lost answer like any other, found by its reference_id (the first made it), never sent again on a new connection',
      [{ on: 'create', count: 1, action: { kind: 'close_kept_alive' } }],
      OK,
      ['connection-reuse', 'created-once'],
    ),
    // Every other answer closes its connection: only here does an SDK that keeps connections
    // alive send a create on one.
    first: [{ on: 'create', action: { kind: 'keep_alive' } }],
  },
];
