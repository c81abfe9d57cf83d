// What server mode concludes from an answer: a correctly signed call must be accepted, with the
// body the interface gives it; a call signed wrong must be refused, and must have changed nothing.
// What the service says is quoted short, and never with the secret or the card number in it.
import { validate } from '@pay/schema';
import { LOOKUP_BY_REFERENCE, type Schema } from './cases.js';
import type { Verdict } from '../recorder.js';
import { is2xx, jsonOf, type HttpAnswer } from '../send.js';

/** An answer's JSON body, as a check reads it. */
export type Body = Record<string, unknown> | null;

/** What an accepted call's answer must be: a check that says what is wrong with it (or null), and its schema. */
export interface AnswerRule {
  check?: (body: Body) => string | null;
  schema?: Schema;
}

/** What a refused call's check found: nothing changed (null), what changed, or that it could not look. */
export type Afterwards = string | null | typeof UNCHECKED;

/** A refused call's check could not look (lookups by reference do not work). */
export const UNCHECKED = Symbol('unchecked');

const got = (a: HttpAnswer) => ({ http_status: a.status });

/**
 * The verdict on a call that must be accepted, and the answer kept for the cases after it: the
 * body when it got a 2xx and passed its check (even when it is not quite the body the interface
 * describes, so the calls that need its id are still tried), else null. The body is read as
 * leniently as a merchant's client reads it (unknown fields and statuses pass).
 */
export function acceptedVerdict(
  a: HttpAnswer,
  description: string,
  rule: AnswerRule,
  redact: (text: string) => string,
): { verdict: Verdict; kept: Body } {
  const body = jsonOf(a);
  if (!is2xx(a.status)) {
    const said = body && typeof body['error'] === 'object' ? ` (it said ${redact(JSON.stringify(body['error'])).slice(0, 300)})` : '';
    return {
      verdict: {
        status: 'fail',
        got: got(a),
        diagnosis: `a correctly signed call got HTTP ${a.status}${said}; it must be accepted: ${description}`,
      },
      kept: null,
    };
  }
  const problem = rule.check?.(body) ?? null;
  if (problem) return { verdict: { status: 'fail', got: got(a), diagnosis: `accepted with HTTP ${a.status}, but ${problem}` }, kept: null };
  const shape = rule.schema === undefined ? null : validate(rule.schema, body);
  if (shape !== null && !shape.ok) {
    const listed = shape.errors.slice(0, 5).map((e) => (e.path ? `${e.path} ${e.message}` : e.message));
    const more = shape.errors.length > 5 ? `; and ${shape.errors.length - 5} more` : '';
    // Paths name the service's own keys: redacted like everything else it says.
    const diagnosis = redact(
      `accepted with HTTP ${a.status}, but the answer is not the body the interface describes: ${listed.join('; ')}${more}`,
    );
    return { verdict: { status: 'fail', got: got(a), diagnosis }, kept: body };
  }
  return { verdict: { status: 'pass', got: got(a) }, kept: body ?? {} };
}

/** The verdict on a call that must be refused; `afterwards` looks for what it must not have done. */
export async function refusedVerdict(a: HttpAnswer, description: string, afterwards?: () => Promise<Afterwards>): Promise<Verdict> {
  if (is2xx(a.status)) {
    return { status: 'fail', got: got(a), diagnosis: `the service accepted it with HTTP ${a.status}; it must refuse it: ${description}` };
  }
  const left = afterwards ? await afterwards() : null;
  if (left === UNCHECKED) {
    return {
      status: 'error',
      got: got(a),
      diagnosis: `refused with HTTP ${a.status}, but whether it changed anything could not be checked: the lookup by reference_id does not work (see server_accepts/${LOOKUP_BY_REFERENCE})`,
    };
  }
  if (left)
    return { status: 'fail', got: got(a), diagnosis: `refused with HTTP ${a.status}, but ${left}: a refused call must change nothing` };
  return { status: 'pass', got: got(a) };
}

/** The check that an answer has an id. */
export const hasId = (b: Body): string | null => (b && typeof b['id'] === 'string' && b['id'] !== '' ? null : 'the answer has no "id"');

/** The check that an answer's `field` is `want`. */
export const echoes =
  (field: string, want: string) =>
  (b: Body): string | null =>
    b && b[field] === want ? null : `the answer's ${field} is ${JSON.stringify(b?.[field])}, not ${JSON.stringify(want)}`;
