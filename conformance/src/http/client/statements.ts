// What client mode holds an SDK to, as plain data: every normative statement of the interface that
// concerns a caller of the service, and every promise of the harness protocol's client commands
// (PROTOCOL.md), each once, in the project's words. Each case of cases.ts names the statements it
// judges (`judges`); the README's map is generated from the two tables (scripts/statements-map.mjs),
// and a statement no case judges is listed there as a gap. Some statements are judged on every
// request or every answer of every case (the wire judge, the count, the answer judge): `every`
// says which, so that they are not pinned to one case that happens to show them.

/** Where a statement comes from. */
type StatementSource = 'interface' | 'protocol';

/**
 * What kind of statement it is: a rule the SDK must follow, a format it must write or read, an
 * error it must tell apart, a time limit, or a freedom the interface leaves to the service (which
 * the runner's service uses, so that an SDK that assumes one choice fails).
 */
type StatementKind = 'rule' | 'format' | 'error' | 'limit' | 'freedom';

/** One statement. */
export interface Statement {
  id: string;
  source: StatementSource;
  /** the section it comes from: of the interface, or a phrase PROTOCOL.md holds verbatim */
  where: string;
  kind: StatementKind;
  /** the statement, in the project's words */
  says: string;
  /** judged on every request or answer of every case, and by what */
  every?: string;
  /** why no case judges it yet: listed as a gap */
  gap?: string;
  /** judged by another mode of the runner, not by client mode */
  elsewhere?: string;
}

/** The interface's statements about a caller of the service, then the protocol's. */
export const STATEMENTS: readonly Statement[] = [
  // --- the interface: what is sent ------------------------------------------------------------
  {
    id: 'url-create',
    source: 'interface',
    where: 'Endpoints 1, 4 and 7',
    kind: 'format',
    says: 'A create is POST {base_url}/v2/merchants/payins/, …/v2/merchants/payouts/ or, legacy, …/v1/merchants/payins/: the trailing slash included.',
  },
  {
    id: 'url-lookup-id',
    source: 'interface',
    where: 'Endpoints 2 and 5',
    kind: 'format',
    says: 'A lookup by id is GET {base_url}/v2/merchants/payins/<id> (or payouts), with no trailing slash.',
  },
  {
    id: 'url-lookup-reference',
    source: 'interface',
    where: 'Endpoints 3 and 6',
    kind: 'format',
    says: 'A lookup by reference is GET {base_url}/v2/merchants/payins/?reference_id=<reference_id> (or payouts), the reference percent-encoded.',
  },
  {
    id: 'url-push',
    source: 'interface',
    where: 'Endpoint 8, Resources › next_action',
    kind: 'format',
    says: "A card push is POST to the push address a card payin's create answered (next_action.url, under {card_proxy_url}), called exactly.",
  },
  {
    id: 'base-url',
    source: 'interface',
    where: 'Addresses',
    kind: 'format',
    says: 'Every address is {base_url} followed by the path: a base URL that has a path of its own keeps it.',
    every: 'the wire judge, on every request (every case gives a base_url with a path)',
  },
  {
    id: 'get-no-body',
    source: 'interface',
    where: 'Endpoints 2, 3, 5, 6',
    kind: 'format',
    says: 'A lookup is a GET with no body.',
    every: "the wire judge, on every lookup (a reconciliation's included)",
  },
  {
    id: 'json-content-type',
    source: 'interface',
    where: 'Endpoints; What the service does',
    kind: 'format',
    says: 'A body is JSON, sent with a JSON content type.',
    every: 'the wire judge, on every POST',
  },
  {
    id: 'create-body',
    source: 'interface',
    where: 'Resources › Create-payin request body, Create-payout request body, Legacy create-payin',
    kind: 'format',
    says: 'A create sends the fields given: the v2 payin, the legacy payin, the payout (redirect_urls only for the payment page).',
    every: 'the body judge, on every create',
  },
  {
    id: 'amount-number',
    source: 'interface',
    where: 'Resources › Money object; Limits (precision not shown)',
    kind: 'format',
    says: 'payment.amount is a decimal JSON number; its precision is not shown, so the digits given are sent as they are.',
    every: 'the body judge, on every create',
  },
  {
    id: 'reference-optional',
    source: 'interface',
    where: 'Resources › Create-payin request body (reference_id: not required)',
    kind: 'rule',
    says: 'reference_id is optional in a create: a create without one is still created once, whatever the network does.',
  },
  {
    id: 'field-bounds',
    source: 'interface',
    where: 'Resources › the field tables; Limits',
    kind: 'format',
    says: 'Strings have length bounds and some fields are required: a value within them is sent, never refused by the SDK; one past them is refused (by the SDK or the service), never cut to fit.',
  },
  {
    id: 'card-push-body',
    source: 'interface',
    where: 'Resources › Card data push body',
    kind: 'format',
    says: 'A card push sends {payin_id, card: {pan, exp_month, exp_year, csc}}.',
  },

  // --- the interface: signing -------------------------------------------------------------------
  {
    id: 'auth-headers',
    source: 'interface',
    where: 'Endpoints; Authentication › Headers',
    kind: 'rule',
    says: 'Every request carries x-merchant-id, x-timestamp and x-signature (the card push x-simplified-signature), each once.',
    every: 'the wire judge, on every request',
  },
  {
    id: 'timestamp-seconds',
    source: 'interface',
    where: 'Authentication › Headers',
    kind: 'format',
    says: 'x-timestamp is the unix time of the request in whole seconds: no milliseconds, no time zone, a fresh one for every request sent.',
    every: 'the wire judge, on every request',
  },
  {
    id: 'sign-string',
    source: 'interface',
    where: 'Authentication › x-signature, steps 1, 3 and 4',
    kind: 'format',
    says: 'x-signature is the HMAC-SHA256, with the secret, of merchant id + x-timestamp + the method in capitals + the full URL + the body, UTF-8, in 64 lowercase hex characters.',
    every: 'the wire judge, on every request',
  },
  {
    id: 'sign-exact-url',
    source: 'interface',
    where: 'Authentication › x-signature, compatibility rules; Endpoints, rule 3',
    kind: 'rule',
    says: 'The URL signed is exactly the URL called, with scheme, host, query string and trailing slash: not the path alone, not encoded otherwise, and never another URL (a redirect is not followed).',
    every: 'the wire judge, on every request',
  },
  {
    id: 'sign-exact-body',
    source: 'interface',
    where: 'Authentication › x-signature, step 2 and compatibility rules',
    kind: 'rule',
    says: 'The body signed is byte for byte the body sent; for a GET the body part is empty.',
    every: 'the wire judge, on every request',
  },
  {
    id: 'sign-simplified',
    source: 'interface',
    where: 'Authentication › x-simplified-signature',
    kind: 'format',
    says: 'The card push is signed with x-simplified-signature: merchant id + x-timestamp + payin id, no method, no body.',
  },

  // --- the interface: what is answered ----------------------------------------------------------
  {
    id: 'create-answer',
    source: 'interface',
    where: 'Endpoints, rule 1',
    kind: 'format',
    says: 'A create answers the record it created (status new, fee null, a next_action).',
  },
  {
    id: 'lookup-answer',
    source: 'interface',
    where: 'Endpoints, rule 2; Endpoints 3 and 6 (a single record)',
    kind: 'format',
    says: 'A lookup answers the record, by id or by reference_id.',
  },
  {
    id: 'datetime-utc',
    source: 'interface',
    where: 'Resources › Payin (created_at, updated_at, expires_at)',
    kind: 'format',
    says: 'Datetimes are ISO 8601 with no zone offset: UTC, whatever the local time of the SDK.',
    every: 'the answer judge, on every record answered',
  },
  {
    id: 'datetime-fraction',
    source: 'interface',
    where: 'Resources › Payin ("with fractional seconds", no number of digits)',
    kind: 'freedom',
    says: 'A datetime has fractional seconds of any number of digits.',
  },
  {
    id: 'fields-open',
    source: 'interface',
    where: 'Resources (values and fields "not shown")',
    kind: 'freedom',
    says: 'A record may carry fields the interface does not list.',
  },
  {
    id: 'status-open',
    source: 'interface',
    where: 'States and transitions ("other states: not shown")',
    kind: 'freedom',
    says: 'status takes at least new and executed, and other values; it changes over time.',
  },
  {
    id: 'status-codes',
    source: 'interface',
    where: 'Endpoints, rule 4',
    kind: 'freedom',
    says: 'Which 2xx a success answers, and which status a failure answers, is not shown: any 2xx with a record is a success.',
  },
  {
    id: 'push-answer',
    source: 'interface',
    where: 'Endpoints, rule 5',
    kind: 'freedom',
    says: "The card push's answer is not shown: a 2xx is a push handled, whatever its body.",
  },
  {
    id: 'error-shape',
    source: 'interface',
    where: 'Errors ("error response body shape and HTTP status codes: not shown")',
    kind: 'freedom',
    says: "An error answer's body and status are not shown: an SDK reads the service's JSON error when there is one, and tells a page from anything else (a proxy's, a gateway's) from the service's own answer.",
  },
  {
    id: 'body-framing',
    source: 'interface',
    where: 'What the service does ("bodies are JSON"; HTTP framing not shown)',
    kind: 'freedom',
    says: 'An answer may come in any HTTP framing: a Content-Length, chunked (in chunks that split a character), or ended by the close.',
  },
  {
    id: 'header-names',
    source: 'interface',
    where: 'What the service does; Endpoints (no answer header is named)',
    kind: 'freedom',
    says: "An answer's headers come in any case and order (HTTP's names are case-insensitive).",
  },
  {
    id: 'answer-content-type',
    source: 'interface',
    where: 'What the service does ("request and response bodies are JSON")',
    kind: 'freedom',
    says: "A JSON answer's Content-Type is JSON's in any spelling: with or without a charset, in any case.",
  },
  {
    id: 'connection-reuse',
    source: 'interface',
    where: 'What the service does (connection handling not shown)',
    kind: 'freedom',
    says: 'The service may close a connection after any answer, or keep it alive and close it while idle: a create whose kept-alive connection closed under it is a lost answer, never re-sent blindly.',
  },
  {
    id: 'expired',
    source: 'interface',
    where: 'Authentication; Errors; Limits (timestamp tolerance)',
    kind: 'error',
    says: 'A request whose x-timestamp is more than the tolerance from the server time is refused as expired.',
  },
  {
    id: 'bad-signature',
    source: 'interface',
    where: 'Errors',
    kind: 'error',
    says: 'A request whose signature does not match is refused.',
    gap: "no case answers a refusal for a bad signature: it is the expired case's kind of error (authentication) with another code, and no SDK mistake seen yet tells the two apart",
  },
  {
    id: 'transaction-error',
    source: 'interface',
    where: 'Errors; Resources (error_code, error_message)',
    kind: 'format',
    says: 'A failed transaction carries error_code and error_message in its record.',
    gap: "the answer's record (protocol version 1) does not carry error_code or error_message, so the runner cannot tell whether an SDK read them; requiring them would fail every adapter written to version 1",
  },
  {
    id: 'rate-limits',
    source: 'interface',
    where: 'Limits ("rate limits: not shown")',
    kind: 'freedom',
    says: 'Rate limits are not shown: a refusal for too many requests may come at any time.',
    gap: 'no case answers 429: a lookup refused for too many requests may be retried later or reported as an API error, both right, and no SDK mistake seen yet is caught by one',
  },
  {
    id: 'webhooks',
    source: 'interface',
    where: 'Events; Webhook signature; Delivery and retry',
    kind: 'rule',
    says: "Webhooks are signed like a request (the receiver's URL, the exact body), answered with a 2xx, retried on a schedule.",
    elsewhere: 'the verify_webhook vectors of `run`, and webhook-endpoint mode',
  },

  // --- the protocol's client commands -----------------------------------------------------------
  {
    id: 'one-operation',
    source: 'protocol',
    where: 'each client command asks the child to\nperform one operation',
    kind: 'rule',
    says: 'Each command performs its one operation with the SDK, over real HTTP, and answers its outcome.',
    every: 'every case',
  },
  {
    id: 'tls-verified',
    source: 'protocol',
    where: 'checks certificates as it would in production',
    kind: 'rule',
    says: 'An https base_url is called over TLS with its certificate checked: an untrusted one is refused, and nothing is sent.',
  },
  {
    id: 'header-lines',
    source: 'protocol',
    where: 'Every request is judged as its bytes go on the wire, header lines as sent',
    kind: 'rule',
    says: 'A header that takes one value is sent once, and no header carries the secret, in any encoding.',
    every: 'the wire judge, on the raw header lines of every request',
  },
  {
    id: 'two-copies',
    source: 'protocol',
    where: 'The runner starts two copies of the child and sends cases to both at once',
    kind: 'rule',
    says: 'Two copies of the child run at once, each against its own service; one that cannot start beside the first is left out.',
    every: 'every run (the cases are shared between the copies)',
  },
  {
    id: 'answer-in-time',
    source: 'protocol',
    where: 'The child must answer within `total_timeout_ms` plus 5 seconds',
    kind: 'limit',
    says: 'The child answers within total_timeout_ms plus 5 seconds.',
    every: 'every case',
  },
  {
    id: 'timeout-attempt',
    source: 'protocol',
    where: "the SDK's time limit for one HTTP attempt (`timeout_ms`",
    kind: 'limit',
    says: 'timeout_ms bounds one HTTP attempt, its whole answer included; when it runs out the SDK answers a timeout.',
  },
  {
    id: 'total-timeout',
    source: 'protocol',
    where: 'for the whole call, retries and reconciliation included (`total_timeout_ms`)',
    kind: 'limit',
    says: 'total_timeout_ms bounds the whole call, its retries and its reconciliation included.',
  },
  {
    id: 'amount-digits',
    source: 'protocol',
    where: 'the SDK must send them as JSON numbers, digit for digit',
    kind: 'format',
    says: 'An amount given as a decimal string is sent as a JSON number with exactly its digits.',
    every: 'the body judge, on every create',
  },
  {
    id: 'strings-as-given',
    source: 'protocol',
    where: 'the SDK sends the same JSON value, in whatever bytes',
    kind: 'format',
    says: 'Strings are sent as given: non-ASCII, quotes, U+2028, white space at their ends, never trimmed or normalised.',
  },
  {
    id: 'time-zone',
    source: 'protocol',
    where: 'The runner may start it with a\n  time zone other than UTC',
    kind: 'rule',
    says: 'The child may run in any time zone: datetimes it reads are UTC, and x-timestamp has no time zone.',
    every: 'the wire judge and the answer judge, in every case (the child runs with TZ=America/St_Johns)',
  },
  {
    id: 'anew',
    source: 'protocol',
    where: 'each is\n  performed anew',
    kind: 'rule',
    says: 'A command sent twice is performed twice: each lookup asks the service, never a cache.',
  },
  {
    id: 'answer-record',
    source: 'protocol',
    where: 'The amount as a decimal string, datetimes as the SDK read them',
    kind: 'format',
    says: 'The record is answered as the service sent it: its id, reference_id, status (any), amount as a decimal string, datetimes in ISO 8601 UTC.',
    every: 'the answer judge, on every record answered',
  },
  {
    id: 'kind-authentication',
    source: 'protocol',
    where: '| `authentication` |',
    kind: 'error',
    says: "A 401 is an authentication error with the service's reason as its code.",
  },
  {
    id: 'kind-not-found',
    source: 'protocol',
    where: '| `not_found` |',
    kind: 'error',
    says: "A 404 with the service's JSON body is not-found.",
  },
  {
    id: 'kind-api',
    source: 'protocol',
    where: '| `api` |',
    kind: 'error',
    says: "Any other non-2xx, a proxy's 404 page and a redirect included, is an API error with its status, code and field paths.",
  },
  {
    id: 'kind-invalid-response',
    source: 'protocol',
    where: '| `invalid_response` |',
    kind: 'error',
    says: 'A 2xx that is not a record (not JSON, a page, an error object) is an invalid response.',
  },
  {
    id: 'kind-network',
    source: 'protocol',
    where: '| `network` |',
    kind: 'error',
    says: 'No complete answer (a connection closed, a body cut off) is a network error.',
  },
  {
    id: 'kind-timeout',
    source: 'protocol',
    where: '| `timeout` |',
    kind: 'error',
    says: 'No complete answer within timeout_ms is a timeout, told apart from a network error.',
  },
  {
    id: 'kind-invalid-request',
    source: 'protocol',
    where: '| `invalid_request` |',
    kind: 'error',
    says: 'A call the SDK refuses before sending anything is an invalid request.',
  },
  {
    id: 'message-no-secret',
    source: 'protocol',
    where: 'it must never carry the secret or\n  card data',
    kind: 'rule',
    says: "An error's message, code and paths never carry the secret or card data, in any encoding.",
    every: 'the answer judge, on every error answered',
  },
  {
    id: 'create-outcome',
    source: 'protocol',
    where: 'For a create, `ok` says it exists, `unknown` that it may, and any error that it was not created',
    kind: 'rule',
    says: "For a create, ok says it exists (this create's record), unknown that it may, an error that it was not created: each is checked against the records counted.",
    every: 'the count, after every create',
  },
  {
    id: 'created-once',
    source: 'protocol',
    where: 'A create is created once',
    kind: 'rule',
    says: 'A create is created once: after a lost answer it is found by its reference_id, and sent again only once an earlier attempt is proven dead (a lookup sent from its x-timestamp + tolerance_seconds + 1 + settle_seconds on misses).',
  },
  {
    id: 'reference-in-use',
    source: 'protocol',
    where: 'A create whose `reference_id` is already used',
    kind: 'rule',
    says: "A create answered 409 (its reference_id already used) is this create's record when the record has its amount, and an API error otherwise.",
  },
  {
    id: 'push-once',
    source: 'protocol',
    where: 'A card push is never sent twice',
    kind: 'rule',
    says: 'A card push is never sent twice: its address is single-use, and a re-send sends the card data twice.',
  },
];
