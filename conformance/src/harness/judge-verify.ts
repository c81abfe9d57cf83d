// Judges a verification answer (verify_webhook, verify_request): the verdict, then the reason code,
// with the vector's description. Which named mistake a wrong answer reveals is decided later, with
// the other answers (across-cases.ts).
import { answeredError, type Judgement, type Obj } from './judgement.js';
import { REASON_CODES, type VerifyVector } from '../types.js';

function verdictText(valid: boolean, reason: unknown): string {
  return valid ? 'valid' : `invalid (${reason === null || reason === undefined ? 'no reason' : String(reason)})`;
}

/** Compares the verdict and reason answered with the vector's. */
export function judgeVerify(vector: VerifyVector, answer: Obj): Judgement {
  const err = answeredError(answer);
  if (err) return err;
  const valid = answer['valid'];
  const reason = answer['reason'] ?? null;
  const got = { valid, reason };
  if (typeof valid !== 'boolean') {
    return { status: 'error', got, diagnosis: 'the answer has no boolean "valid"' };
  }
  if (reason !== null && typeof reason !== 'string') {
    return { status: 'error', got, diagnosis: '"reason" in the answer must be a string or null' };
  }
  const { verdict, reason: wantReason } = vector.expected;
  const about = `${vector.description}${vector.flags.length ? ` [flags: ${vector.flags.join(', ')}]` : ''}`;
  if (verdict === 'acceptable') {
    const chosen = valid ? 'valid' : 'invalid';
    return {
      status: 'pass',
      got,
      chosen_verdict: chosen,
      diagnosis: `either verdict is acceptable here; the implementation chose ${verdictText(valid, reason)}`,
    };
  }
  const wantValid = verdict === 'valid';
  // The named mistakes that would give this answer; which one it is, the other cases decide
  // (see across-cases.ts).
  const candidates = vector.mistakes
    .filter((m) => m.answer.valid === valid && m.answer.reason === (valid ? null : reason))
    .map((m) => m.name);
  const named = candidates.length ? { mistake_candidates: candidates } : {};
  if (valid !== wantValid) {
    return {
      status: 'fail',
      got,
      ...named,
      diagnosis: `expected ${verdictText(wantValid, wantReason)}, got ${verdictText(valid, reason)}: ${about}`,
    };
  }
  if (!wantValid && reason !== wantReason) {
    const known = typeof reason === 'string' && (REASON_CODES as readonly string[]).includes(reason);
    return {
      status: 'fail',
      got,
      ...named,
      reason_mismatch: { expected: wantReason, got: reason },
      diagnosis:
        `reason mismatch: the verdict is right (invalid) but the reason is ${JSON.stringify(reason)}, expected ${JSON.stringify(wantReason)}` +
        (known ? '' : ' (not a protocol reason code)') +
        `; checks run in the order ${REASON_CODES.join(', ')} and the reason is the first that fails: ${about}`,
    };
  }
  return { status: 'pass', got };
}
