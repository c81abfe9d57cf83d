// What judging one answer produces, and what every command's judgement starts with: an answer that
// is an error (or "unsupported") instead of one.
import type { CaseResult } from '../types.js';

/** The part of a case result that judging its answer decides. */
export type Judgement = Pick<
  CaseResult,
  'status' | 'got' | 'diagnosis' | 'mistake' | 'first_difference' | 'reason_mismatch' | 'chosen_verdict'
>;

/** An answer as the child wrote it: one JSON object. */
export type Obj = Record<string, unknown>;

/** The answer's `error` field, as a skip (unsupported) or an error of the case; null when absent. */
export function answeredError(answer: Obj): Judgement | null {
  if (!('error' in answer) || answer['error'] === undefined || answer['error'] === null) return null;
  const message = typeof answer['error'] === 'string' ? answer['error'] : JSON.stringify(answer['error']);
  if (message === 'unsupported') {
    return { status: 'skip', got: { error: message }, diagnosis: 'the implementation answered "unsupported"' };
  }
  return { status: 'error', got: { error: message }, diagnosis: `the implementation answered an error: ${message}` };
}
