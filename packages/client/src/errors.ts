// The errors a call can end with. Each class answers one question a merchant's code asks: was
// anything sent, did the service refuse it, did the answer get lost, is the outcome known?
// None holds the secret, a signature or a request body (which may carry card data): only what
// the service answered, and that is already on the caller's side of the wire.
import type { ValidationError } from '@pay/schema';

/**
 * The service's answer as received: status, headers and body text (at most the read limit; a
 * card push's answer with the card number and security code masked wherever it repeats them).
 */
export interface RawResponse {
  /** HTTP status code. */
  readonly status: number;
  /** Response headers. */
  readonly headers: Headers;
  /** The body as UTF-8 text; cut at the read limit (1 MiB) when `truncated`. */
  readonly body: string;
  /** True when the body was longer than the read limit and only its start was read. */
  readonly truncated: boolean;
}

/** Which call an error, hook event or result belongs to. */
export type Operation =
  | 'payins.create'
  | 'payins.createLegacy'
  | 'payins.get'
  | 'payins.getByReference'
  | 'payins.pushCard'
  | 'payouts.create'
  | 'payouts.get'
  | 'payouts.getByReference';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
const SHOWN_BODY = 500;
/**
 * The brand every error of this package carries, on its prototype. A registered symbol, so that
 * `isPayError` recognises an error from another installed copy of the package (packages pin each
 * other by exact version, so an app and a library can each bring their own), where `instanceof`
 * would not. Never rename it: copies of every version must agree on it.
 */
const BRAND = Symbol.for('@pay/client.error');

/**
 * What kind of failure an error is, one per class: the stable name code branches on, across
 * copies of the package (see {@link isPayError}).
 */
export type PayErrorKind =
  | 'invalid_request'
  | 'api'
  | 'authentication'
  | 'not_found'
  | 'invalid_response'
  | 'network'
  | 'timeout'
  | 'outcome_unknown';

/**
 * Base class of every error a call ends with (`instanceof PayError` catches them all), with two
 * exceptions that are not outcomes of the call: unusable options (to `createClient`, or a call's
 * `options` or `options.signal`) are a `TypeError`, a programming mistake; and a call the caller
 * aborts rejects with the signal's own reason (a create that may have been created by then ends
 * in OutcomeUnknownError instead).
 */
export abstract class PayError extends Error {
  override name = 'PayError';
  /**
   * What kind of failure this is; each class has its own, and an `ApiError`'s subclasses theirs
   * (`authentication`, `not_found`). Use {@link isPayError} to branch on it.
   */
  abstract get kind(): PayErrorKind;
  /** The call that failed. */
  readonly operation: Operation;
  /** The service's answer, when there was one. */
  readonly response: RawResponse | undefined;

  /** @internal */
  constructor(operation: Operation, message: string, response?: RawResponse, options?: { cause?: unknown }) {
    super(`${operation}: ${message}`, options);
    this.operation = operation;
    this.response = response;
  }

  /** Node's `util.inspect`: the message, the status and the start of the body, not 1 MiB of it. */
  [INSPECT](): string {
    const fields = Object.entries(this)
      .filter(([key, value]) => value !== undefined && key !== 'response' && key !== 'name' && key !== 'cause' && !isEmptyList(value))
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
    if (this.response !== undefined) {
      const body = this.response.body;
      if (!('status' in this)) fields.push(`status: ${this.response.status}`);
      fields.push(`body: ${JSON.stringify(body.length > SHOWN_BODY ? `${body.slice(0, SHOWN_BODY)}…` : body)}`);
    }
    const cause = this.cause instanceof Error ? `${this.cause.name}: ${this.cause.message}` : undefined;
    if (cause !== undefined) fields.push(`cause: ${JSON.stringify(cause)}`);
    return `${this.name}: ${this.message}${fields.length ? ` { ${fields.join(', ')} }` : ''}\n${stackFrames(this.stack)}`;
  }
}

Object.defineProperty(PayError.prototype, BRAND, { value: true });

/** The class of each kind, for {@link isPayError}'s narrowing. */
interface PayErrorOfKind {
  invalid_request: InvalidRequestError;
  api: ApiError;
  authentication: AuthenticationError;
  not_found: NotFoundError;
  invalid_response: InvalidResponseError;
  network: NetworkError;
  timeout: TimeoutError;
  outcome_unknown: OutcomeUnknownError;
}

/**
 * True when `value` is an error of this package (of `kind`, when given), also one made by another
 * installed copy of it or in another realm, where `instanceof` says false. `'api'` also matches
 * its subclasses' kinds, `authentication` and `not_found`, as `instanceof ApiError` would.
 *
 * @example
 * ```ts
 * if (isPayError(error, 'outcome_unknown')) console.log(error.referenceId, error.decidableAt);
 * ```
 */
export function isPayError(value: unknown): value is PayError;
export function isPayError<K extends PayErrorKind>(value: unknown, kind: K): value is PayErrorOfKind[K];
export function isPayError(value: unknown, kind?: PayErrorKind): boolean {
  if (value === null || typeof value !== 'object' || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
  if (kind === undefined) return true;
  const actual = (value as { kind?: unknown }).kind;
  return actual === kind || (kind === 'api' && (actual === 'authentication' || actual === 'not_found'));
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function stackFrames(stack: string | undefined): string {
  return (stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/**
 * The request was refused before anything was sent: a body that fails the interface's schema,
 * or an unusable id or reference. `errors` lists every problem with its field path.
 */
export class InvalidRequestError extends PayError {
  override name = 'InvalidRequestError';
  /** `'invalid_request'`: see {@link PayErrorKind}. */
  override get kind(): 'invalid_request' {
    return 'invalid_request';
  }
  /** Every problem found, each with a dotted field path (`customer.email`) and a sentence. */
  readonly errors: readonly ValidationError[];

  /** @internal */
  constructor(operation: Operation, errors: readonly ValidationError[]) {
    super(
      operation,
      `invalid request, nothing was sent: ${errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`,
    );
    this.errors = errors;
  }
}

/**
 * The service answered with a status that is not 2xx. `status`, and from a JSON error body
 * (`{error: {code, message, hint?, errors?}}`) the `code`, the service's `reason`, its `hint` (the
 * likely mistake, when it can tell) and the field `errors` of a 400, are kept, each cut to a
 * bounded length; the message repeats them (`… 401: bad_signature: … — hint: …`). The raw
 * `response` is kept too. For a create, this status means the service refused the request:
 * nothing was created.
 */
export class ApiError extends PayError {
  override name = 'ApiError';
  /** `'api'`: see {@link PayErrorKind}. */
  override get kind(): 'api' | 'authentication' | 'not_found' {
    return 'api';
  }
  /** HTTP status of the answer. */
  readonly status: number;
  /** `error.code` of a JSON error body, when there is one. */
  readonly code: string | undefined;
  /** `error.message` of a JSON error body, the service's reason, when there is one. */
  readonly reason: string | undefined;
  /** `error.hint` of a JSON error body, the likely mistake in words, when the service gives one. */
  readonly hint: string | undefined;
  /** `error.errors` of a JSON error body (a 400's problems, each with its field path); empty when none. */
  readonly errors: readonly ValidationError[];
  declare readonly response: RawResponse;

  /** @internal */
  constructor(operation: Operation, response: RawResponse, message?: string) {
    const detail = errorDetail(response);
    super(operation, `${message ?? `the service answered ${response.status}${detail.text}`}${detail.hintText}`, response);
    this.status = response.status;
    this.code = detail.code;
    this.reason = detail.reason;
    this.hint = detail.hint;
    this.errors = detail.errors;
  }
}

/** The service refused the signature or the timestamp (401): check the merchant id, secret and clock. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  /** `'authentication'`: see {@link PayErrorKind}. */
  override get kind(): 'authentication' {
    return 'authentication';
  }
}

/**
 * The service says no payin or payout has this id or reference: a 404 with a JSON body (every
 * answer of the interface is JSON). A 404 that is not JSON, a proxy's or load balancer's page, is
 * a plain ApiError instead: it proves nothing about the record.
 */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  /** `'not_found'`: see {@link PayErrorKind}. */
  override get kind(): 'not_found' {
    return 'not_found';
  }
}

/**
 * The service answered 2xx, but not with something this client can read: not JSON, HTML, a
 * content type other than JSON, a body cut short or larger than the read limit, or JSON that is not
 * the record the interface describes (`errors` then says where).
 */
export class InvalidResponseError extends PayError {
  override name = 'InvalidResponseError';
  /** `'invalid_response'`: see {@link PayErrorKind}. */
  override get kind(): 'invalid_response' {
    return 'invalid_response';
  }
  declare readonly response: RawResponse;
  /** Where the body departs from the interface's record, when it was JSON. */
  readonly errors: readonly ValidationError[];

  /** @internal */
  constructor(operation: Operation, response: RawResponse, reason: string, errors: readonly ValidationError[] = []) {
    super(operation, `the service answered ${response.status} with ${reason}`, response);
    this.errors = errors;
  }
}

/** No answer: the connection failed, was reset, or the body was cut off. */
export class NetworkError extends PayError {
  override name = 'NetworkError';
  /** `'network'`: see {@link PayErrorKind}. */
  override get kind(): 'network' {
    return 'network';
  }
}

/** No answer within the time limit (`timeoutMs` per attempt, or `totalTimeoutMs` for the whole call). */
export class TimeoutError extends PayError {
  override name = 'TimeoutError';
  /** `'timeout'`: see {@link PayErrorKind}. */
  override get kind(): 'timeout' {
    return 'timeout';
  }
}

/**
 * A create whose outcome the client could not decide in time: the payin or payout may exist or
 * not. Never create it again with a new `reference_id`. Look it up by `referenceId` from
 * `decidableAt` on: found, it exists; not found (`NotFoundError`) from that moment on, it was
 * never created and may be created again (with the same `reference_id`). `cause` is the last
 * failure seen.
 */
export class OutcomeUnknownError extends PayError {
  override name = 'OutcomeUnknownError';
  /** `'outcome_unknown'`: see {@link PayErrorKind}. */
  override get kind(): 'outcome_unknown' {
    return 'outcome_unknown';
  }
  /** The `reference_id` the create was sent with: the handle to find out what happened. */
  readonly referenceId: string;
  /**
   * From this moment on (by the service's clock, plus the settle margin) no attempt of this
   * create can still be accepted, so a lookup that misses proves it was not created.
   */
  readonly decidableAt: Date;

  /** @internal */
  constructor(operation: Operation, referenceId: string, decidableAt: Date, reason: string, cause?: unknown) {
    super(
      operation,
      `outcome unknown for reference_id ${JSON.stringify(referenceId)} (${reason}); look it up by reference_id after ${decidableAt.toISOString()} before creating it again`,
      undefined,
      cause === undefined ? undefined : { cause },
    );
    this.referenceId = referenceId;
    this.decidableAt = decidableAt;
  }
}

// Bounds on what an error takes from a body: the body may be anyone's (a proxy's, a hostile
// service's), and an error's message ends up in logs.
const REASON_CHARS = 300;
const HINT_CHARS = 500;
const FIELD_CHARS = 200;
const KEPT_ERRORS = 20;
const SHOWN_ERRORS = 5;

/** What an ApiError takes from a JSON error body, and the text its message adds. */
interface ErrorDetail {
  code: string | undefined;
  reason: string | undefined;
  hint: string | undefined;
  errors: readonly ValidationError[];
  /** `: code: reason — path: message; …`, or `''`. */
  text: string;
  /** ` — hint: …`, or `''`. */
  hintText: string;
}

const NO_DETAIL: ErrorDetail = { code: undefined, reason: undefined, hint: undefined, errors: [], text: '', hintText: '' };

/**
 * The code, reason, hint and field errors of a JSON error body
 * (`{error: {code, message, hint?, errors?: [{path, message}]}}`), if any, each bounded.
 */
function errorDetail(response: RawResponse): ErrorDetail {
  const type = response.headers.get('content-type') ?? '';
  if (!/\bjson\b/i.test(type) || response.truncated) return NO_DETAIL;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return NO_DETAIL;
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (error === null || typeof error !== 'object') return NO_DETAIL;
  const { code: c, message: m, hint: h, errors: list } = error as Record<string, unknown>;
  const code = shown(c, FIELD_CHARS);
  const reason = shown(m, REASON_CHARS);
  const hint = shown(h, HINT_CHARS);
  const errors: ValidationError[] = [];
  if (Array.isArray(list)) {
    for (const item of list.slice(0, KEPT_ERRORS)) {
      const { path, message } = (item ?? {}) as Record<string, unknown>;
      const text = shown(message, FIELD_CHARS);
      if (text !== undefined) errors.push({ path: shown(path, FIELD_CHARS) ?? '', message: text });
    }
  }
  const fields = errors.slice(0, SHOWN_ERRORS).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
  if (Array.isArray(list) && list.length > SHOWN_ERRORS) fields.push(`and ${list.length - SHOWN_ERRORS} more`);
  const said = [code, reason].filter((x) => x !== undefined).join(': ');
  const text = `${said ? `: ${said}` : ''}${fields.length ? ` — ${fields.join('; ')}` : ''}`;
  return { code, reason, hint, errors, text, hintText: hint === undefined ? '' : ` — hint: ${hint}` };
}

/**
 * A string of the body as an error may show it: control characters (a line break that would
 * forge a log line, a terminal escape) made spaces, and cut at `max` characters.
 */
function shown(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  const clean = value.slice(0, max + 1).replace(/\p{Cc}/gu, ' ');
  // Cut between characters, never inside a surrogate pair (half an emoji is not text).
  return clean.length > max ? `${clean.slice(0, max).replace(/[\uD800-\uDBFF]$/, '')}…` : clean;
}
