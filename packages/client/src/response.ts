// Reading the service's answers: a 2xx body becomes the typed record (validated leniently, with
// datetimes as Dates); anything else becomes the typed error that says what the service did.
import { parseDateTime, validate } from '@pay/schema';
import type { Operation, RawResponse } from './errors.js';
import { ApiError, AuthenticationError, InvalidResponseError, NotFoundError } from './errors.js';

/** The datetime fields of a payin or payout. */
type DateField = 'created_at' | 'updated_at' | 'expires_at';

/** A record with its datetimes read as `Date`s (UTC); every other field as the service sent it. */
export type Dated<T> = Omit<T, DateField> & { readonly [K in DateField]: Date };

/** A schema of `@pay/schema`. */
type Schema = Parameters<typeof validate>[0];

const DATE_FIELDS: readonly DateField[] = ['created_at', 'updated_at', 'expires_at'];

// application/json, or a structured suffix such as application/problem+json.
const JSON_TYPE = /^\s*application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** True for a 2xx status. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/**
 * The error a non-2xx answer stands for. A 404 is the service saying "no such record" only when
 * its body is JSON, as every answer of the interface is: a proxy's or a load balancer's page with
 * a 404 status says nothing about the record, and a NotFoundError is what proves a create absent.
 */
export function answerError(operation: Operation, response: RawResponse): ApiError {
  if (response.status === 401) return new AuthenticationError(operation, response);
  if (response.status === 404 && 'value' in parseJson(response)) return new NotFoundError(operation, response);
  return new ApiError(operation, response);
}

/** The JSON value of a body read whole, or why there is none. */
function parseJson(response: RawResponse): { readonly value: unknown } | { readonly problem: string } {
  if (response.truncated) return { problem: 'a body larger than the read limit (1 MiB)' };
  const type = response.headers.get('content-type');
  if (type !== 'application/json' && (type === null || !JSON_TYPE.test(type))) {
    return { problem: `${type === null ? 'no content type' : `content type ${JSON.stringify(type.slice(0, 100))}`}, not JSON` };
  }
  try {
    return { value: JSON.parse(response.body) };
  } catch {
    return { problem: 'a body that is not JSON (cut short?)' };
  }
}

/** The JSON value of a 2xx body, or an InvalidResponseError saying why there is none. */
function readJson(operation: Operation, response: RawResponse): unknown {
  const json = parseJson(response);
  if ('problem' in json) throw new InvalidResponseError(operation, response, json.problem);
  return json.value;
}

/**
 * The record of a 2xx answer, checked against the interface's response schema (lenient: unknown
 * fields and statuses pass) and with its datetimes as Dates.
 */
export function readRecord<T extends Record<DateField, string>>(operation: Operation, response: RawResponse, schema: Schema): Dated<T> {
  const json = readJson(operation, response);
  const result = validate(schema, json);
  if (!result.ok) throw new InvalidResponseError(operation, response, 'JSON that is not the record the interface describes', result.errors);
  // The record was parsed from the body just now and belongs to no one else: its datetimes are
  // replaced in place rather than in a copy.
  const record = result.value as Record<string, unknown>;
  for (const field of DATE_FIELDS) {
    try {
      record[field] = parseDateTime(record[field] as string);
    } catch {
      throw new InvalidResponseError(operation, response, 'an impossible datetime', [
        { path: field, message: 'is not a real date and time' },
      ]);
    }
  }
  return record as Dated<T>;
}
