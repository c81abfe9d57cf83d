// The request log: every request to a service endpoint, accepted or refused, with why. It is what a
// developer opens when a call fails: the reason code, the hint that names the likely mistake, and
// the body as the sandbox received it. Every text of an entry passes the masking rule
// (masking.ts) as it is added: card data and secrets are never kept, in the target, the merchant
// header, the sentences or the body.
//
// Bounded: the newest MAX_LOGGED_REQUESTS entries are kept, each body cut at LOGGED_BODY_CHARS,
// each refusal's field errors cut at LOGGED_ERRORS of LOGGED_ERROR_CHARS.
import type { FieldError } from './http.js';
import { errorCount } from './wire/errors.js';
import type { LoggedRequest } from './wire/requests.js';
import { maskJson, maskText } from './masking.js';

/** How many requests the log keeps (the newest). */
export const MAX_LOGGED_REQUESTS = 1000;
/** How much of each request body is kept, in characters. */
export const LOGGED_BODY_CHARS = 4096;
/** How many field errors of a refusal are kept (the first; a last entry counts the rest). */
export const LOGGED_ERRORS = 20;
/** How much of a field error's path, and of its message, is kept, in characters. */
export const LOGGED_ERROR_CHARS = 200;

export type { LoggedRequest } from './wire/requests.js';

/** A logged request and when it arrived among everything else of its millisecond (Schedule.tick). */
export interface OrderedRequest {
  request: LoggedRequest;
  order: number;
}

/** The log: a ring of the newest entries. */
export class RequestLog {
  #entries: OrderedRequest[] = [];
  #next = 0;
  #seq = 0;

  /**
   * Adds an entry and numbers it (its `seq` is set here, on the entry itself: copying it with a
   * spread would cost more than building it; the sandbox builds it with `seq` first, so it keeps
   * the field order of LoggedRequest). `order` is the schedule's tick at its arrival.
   */
  add(entry: Omit<LoggedRequest, 'seq'> & { seq?: number }, order = 0): LoggedRequest {
    const request = entry as LoggedRequest;
    request.seq = ++this.#seq;
    // The log is the writer of everything the requests page, `GET /_sandbox/requests`, the
    // timeline and `pay-sandbox requests` show of a request: each text it keeps passes the masking
    // rule here, whoever built the entry (masking twice is masking once).
    request.method = maskText(request.method);
    request.path = maskText(request.path);
    if (request.merchant_id !== null) request.merchant_id = maskText(request.merchant_id);
    if (request.message !== null) request.message = maskText(request.message);
    if (request.hint !== null) request.hint = maskText(request.hint);
    request.errors = request.errors.map((e) => ({ path: maskText(e.path), message: maskText(e.message) }));
    if (this.#entries.length < MAX_LOGGED_REQUESTS) this.#entries.push({ request, order });
    else {
      this.#entries[this.#next] = { request, order };
      this.#next = (this.#next + 1) % MAX_LOGGED_REQUESTS;
    }
    return request;
  }

  /** The newest entries first, at most `limit`. */
  list(limit = MAX_LOGGED_REQUESTS): LoggedRequest[] {
    return this.ordered()
      .reverse()
      .slice(0, Math.max(0, limit))
      .map((e) => e.request);
  }

  /** Every entry, oldest first, with its order of arrival. */
  ordered(): OrderedRequest[] {
    return [...this.#entries.slice(this.#next), ...this.#entries.slice(0, this.#next)];
  }

  clear(): void {
    this.#entries = [];
    this.#next = 0;
    this.#seq = 0;
  }
}

const lenient = new TextDecoder('utf-8');

/**
 * A request body as the log shows it: null when empty; JSON as parsed, with card numbers (any
 * spelling) cut to their last four digits, security codes, expiry and credentials hidden, and URLs
 * without their credentials and tokens (maskJson), written back as compact JSON; a body that does
 * not parse is not shown at all (it may hold card data the masking could not find). Cut at
 * LOGGED_BODY_CHARS. `parsed`: what the endpoint parsed these bytes to, when it got that far.
 */
export function loggedBody(bytes: Uint8Array | undefined, parsed?: { value: unknown }): string | null {
  if (bytes === undefined) return '(larger than the sandbox reads)';
  if (bytes.byteLength === 0) return null;
  let shown: string;
  try {
    // The value the endpoint parsed (`parsed`, of these bytes), when it got that far; else the
    // bytes read leniently.
    const value: unknown = parsed === undefined ? JSON.parse(lenient.decode(bytes)) : parsed.value;
    shown = JSON.stringify(maskJson(value));
  } catch {
    return `(${bytes.byteLength} bytes that are not JSON: not shown, as they may hold card data)`;
  }
  return shown.length > LOGGED_BODY_CHARS
    ? `${shown.slice(0, LOGGED_BODY_CHARS)}… (${shown.length - LOGGED_BODY_CHARS} more characters)`
    : shown;
}

/** A field's path or message as the log keeps it: masked (card data, URL credentials), then cut. */
function loggedText(text: string): string {
  const masked = maskText(text);
  return masked.length > LOGGED_ERROR_CHARS ? `${masked.slice(0, LOGGED_ERROR_CHARS)}…` : masked;
}

/**
 * A refusal's field errors as the log keeps them: the first LOGGED_ERRORS, masked and cut (see
 * loggedText), and, when there were more, a last entry saying how many.
 */
export function loggedErrors(errors: readonly FieldError[] | undefined): FieldError[] {
  if (errors === undefined) return [];
  const kept = errors.slice(0, LOGGED_ERRORS).map((e) => ({ path: loggedText(e.path), message: loggedText(e.message) }));
  const rest = errorCount(errors) - kept.length;
  if (rest > 0) kept.push({ path: '', message: `and ${rest} more field error${rest === 1 ? '' : 's'} (the answer lists them)` });
  return kept;
}
