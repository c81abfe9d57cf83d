// Judgements that need the implementation's other answers, made once every case has run:
// - an acceptable verdict passes only when the cases it depends on show the choice deliberate;
// - a wrong verification answer is matched to the verifier mistake it reveals, using the other
//   answers of its category to choose between mistakes that would give the same answer.
import { SERIALISERS, parseJsonBytes, serialise } from './serialisers.js';
import { verifyAnswer } from '../signing.js';
import type { CaseResult, Suite, VerifyMistake, VerifyVector } from '../types.js';

interface Answered {
  result: CaseResult;
  vector: VerifyVector;
  valid: boolean;
  reason: string | null;
}

const ANSWERED = new Set(['pass', 'fail']);

function answerOf(r: CaseResult): { valid: boolean; reason: string | null } | null {
  const got = r.got as { valid?: unknown; reason?: unknown } | null;
  if (!ANSWERED.has(r.status) || !got || typeof got.valid !== 'boolean') return null;
  return { valid: got.valid, reason: typeof got.reason === 'string' ? got.reason : null };
}

/**
 * Completes the judgements that need the other answers, in place: the acceptable verdicts, and
 * the verifier mistake each wrong verification answer reveals.
 */
export function judgeAcrossCases(suite: Suite, cases: CaseResult[]): void {
  const byId = new Map(cases.map((r) => [r.id, r]));
  const perCategory: Answered[][] = [];
  for (const category of suite.categories) {
    if (!category.command.startsWith('verify_')) continue;
    const answered: Answered[] = [];
    for (const v of category.vectors) {
      const result = byId.get(v.id);
      const answer = result && answerOf(result);
      if (v.kind === 'verify' && result && answer) answered.push({ result, vector: v, ...answer });
    }
    judgeAcceptable(answered, byId);
    perCategory.push(answered.filter((a) => a.vector.expected.verdict !== 'acceptable'));
  }
  if (perCategory.flat().every(correct)) return; // nothing to name
  // Webhook and request verification usually share their code: what one category rules out
  // breaks a tie in the other.
  const everywhere = ruledOut(perCategory.flat());
  for (const answered of perCategory) nameMistakes(answered, everywhere);
}

function judgeAcceptable(answered: Answered[], byId: Map<string, CaseResult>): void {
  for (const { result, vector, valid, reason } of answered) {
    const conditions = vector.expected.acceptable;
    if (vector.expected.verdict !== 'acceptable' || !conditions) continue;
    const branch = valid ? conditions.valid : conditions.invalid;
    const problems: string[] = [];
    if (!valid && !conditions.invalid.reasons.includes(reason ?? '')) {
      problems.push(
        `it was refused for ${JSON.stringify(reason)}, which the open question does not explain (a refusal here must be ${conditions.invalid.reasons.join(' or ')})`,
      );
    }
    const notPassed = branch.requires.filter((id) => byId.get(id)?.status !== 'pass');
    if (notPassed.length) {
      const what = notPassed.map((id) => `${id} (${byId.get(id)?.status ?? 'not run'})`).join(', ');
      problems.push(
        valid
          ? `accepting it counts only when the verifier still refuses wrong signatures and accepts the lowercase one, and these did not pass: ${what}`
          : `refusing it counts only when the same request signed in lowercase is accepted, and these did not pass: ${what}`,
      );
    }
    if (problems.length === 0) {
      result.diagnosis = `either verdict is acceptable here; the implementation chose ${valid ? 'valid' : `invalid (${reason})`}, and its other answers show the choice is deliberate`;
      continue;
    }
    result.status = 'fail';
    result.diagnosis = `the interface leaves this verdict open, but the choice (${valid ? 'valid' : `invalid, ${reason}`}) is not a deliberate one: ${problems.join('; ')}: ${vector.description}`;
  }
}

/** A mistake that would give some answer on a vector: listed by the vector, or modelled here. */
interface Candidate {
  /** tells modelled variants of one mistake apart */
  key: string;
  name: string;
  description: string;
  answer: { valid: boolean; reason: string | null };
}

const sameAnswer = (a: Answered, c: Candidate) => c.answer.valid === a.valid && c.answer.reason === (a.valid ? null : a.reason);
const correct = (a: Answered) => a.valid === (a.vector.expected.verdict === 'valid') && (a.valid || a.reason === a.vector.expected.reason);

const candidateCache = new WeakMap<VerifyVector, Candidate[]>();

/**
 * The vector's listed mistakes, and a verifier that re-serialises a JSON body with each serialiser
 * the runner knows: which of those changes the answer depends on the serialiser, so it is worked
 * out here rather than listed in the vector.
 */
function candidatesOf(v: VerifyVector): Candidate[] {
  const cached = candidateCache.get(v);
  if (cached) return cached;
  const out: Candidate[] = v.mistakes.map((m: VerifyMistake) => ({ key: m.name, ...m }));
  const input = v.input as Record<string, unknown>;
  const body = Buffer.from(String(input['body_b64'] ?? ''), 'base64');
  const value = String(input['method']).toUpperCase() === 'GET' ? undefined : parseJsonBytes(body);
  if (value !== undefined) {
    const verifying = {
      merchant_id: String(input['merchant_id']),
      secret: String(input['secret']),
      url: String(input['url']),
      method: String(input['method']),
      headers: input['headers'] as Record<string, string>,
      body,
      now: String(input['now']),
    };
    const expected = verifyAnswer(verifying);
    for (const s of SERIALISERS) {
      const bytes = Buffer.from(serialise(value, s.style), 'utf8');
      if (bytes.equals(body)) continue;
      const answer = verifyAnswer(verifying, bytes);
      if (answer.valid === expected.valid && answer.reason === expected.reason) continue;
      out.push({
        key: `body_reserialised:${s.name}`,
        name: 'body_reserialised',
        description: `parses the JSON body and writes it again (as ${s.name}) before computing the signature, instead of using the bytes received`,
        answer,
      });
    }
  }
  candidateCache.set(v, out);
  return out;
}

/** Mistakes that would have changed an answer the implementation got right. */
function ruledOut(answered: Answered[]): Set<string> {
  const out = new Set<string>();
  for (const a of answered) if (correct(a)) for (const c of candidatesOf(a.vector)) out.add(c.key);
  return out;
}

/**
 * For each wrong answer, the mistakes that would give it, minus those the implementation's other
 * answers rule out: a mistake is ruled out when, on a vector where it would change the answer, the
 * implementation answered correctly. Of those left, the one that explains the most wrong answers
 * of the category is named (what the other verify category rules out breaks a tie); several left
 * are reported as candidates.
 */
function nameMistakes(answered: Answered[], ruledOutEverywhere: Set<string>): void {
  const out = ruledOut(answered);
  const explains = new Map<string, number>();
  for (const a of answered) {
    if (correct(a)) continue;
    for (const c of candidatesOf(a.vector)) if (sameAnswer(a, c)) explains.set(c.key, (explains.get(c.key) ?? 0) + 1);
  }
  for (const a of answered) {
    const r = a.result;
    delete r.mistake_candidates;
    if (correct(a)) continue;
    const left = candidatesOf(a.vector).filter((c) => sameAnswer(a, c) && !out.has(c.key));
    const best = Math.max(0, ...left.map((c) => explains.get(c.key) ?? 0));
    let chosen = left.filter((c) => (explains.get(c.key) ?? 0) === best);
    const narrower = chosen.filter((c) => !ruledOutEverywhere.has(c.key));
    if (narrower.length) chosen = narrower;
    const names = [...new Set(chosen.map((c) => c.name))];
    if (names.length === 1) {
      // One mistake; with several serialisers that fit, the first (the most common) describes it.
      const c = chosen[0]!;
      r.mistake = c.name;
      r.diagnosis = insertNamed(r.diagnosis ?? '', `your verifier ${c.description} (mistake "${c.name}")`);
    } else if (names.length > 1) {
      r.mistake_candidates = names;
      const text = names.map((n) => `${chosen.find((c) => c.name === n)!.description} ("${n}")`).join('; or ');
      r.diagnosis = insertNamed(r.diagnosis ?? '', `this answer is what a verifier gives that ${text}`);
    }
  }
}

/** "expected …, got …: <about>" becomes "expected …, got …: <named>: <about>". */
function insertNamed(diagnosis: string, named: string): string {
  const at = diagnosis.indexOf(': ');
  return at < 0 ? `${diagnosis}: ${named}` : `${diagnosis.slice(0, at)}: ${named}: ${diagnosis.slice(at + 2)}`;
}
