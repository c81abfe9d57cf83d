// Compares one answer with its vector and says, in words a person can act on, what is wrong.
import { createHmac } from 'node:crypto';
import { SERIALISERS, parseJsonBytes, sameJson, serialise } from './serialisers.js';
import { REASON_CODES, type CaseResult, type FirstDifference, type SignVector, type VerifyVector } from '../types.js';

export type Judgement = Pick<
  CaseResult,
  'status' | 'got' | 'diagnosis' | 'mistake' | 'first_difference' | 'reason_mismatch' | 'chosen_verdict'
>;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX64_ANY = /^[0-9a-fA-F]{64}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const SIGNATURE_HEADERS = new Set(['x-signature', 'x-simplified-signature']);

/** The answer's `error` field, as a skip (unsupported) or an error of the case; null when absent. */
function answeredError(answer: Obj): Judgement | null {
  if (!('error' in answer) || answer['error'] === undefined || answer['error'] === null) return null;
  const message = typeof answer['error'] === 'string' ? answer['error'] : JSON.stringify(answer['error']);
  if (message === 'unsupported') {
    return { status: 'skip', got: { error: message }, diagnosis: 'the implementation answered "unsupported"' };
  }
  return { status: 'error', got: { error: message }, diagnosis: `the implementation answered an error: ${message}` };
}

/** Bytes for display: printable ASCII as is, everything else escaped. */
export function escapeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

const CONTEXT = 20;

/** Where two byte strings part; null when they are equal. */
export function firstDifference(expected: Uint8Array, got: Uint8Array): FirstDifference | null {
  const n = Math.min(expected.length, got.length);
  let i = 0;
  while (i < n && expected[i] === got[i]) i++;
  if (i === n && expected.length === got.length) return null;
  const from = Math.max(0, i - CONTEXT);
  const show = (b: Uint8Array): string => {
    const head = escapeBytes(b.subarray(from, i));
    const tail = i < b.length ? escapeBytes(b.subarray(i, i + CONTEXT)) : '';
    return `${from > 0 ? '…' : ''}${head}⟦${tail}${i + CONTEXT < b.length ? '…' : ''}`;
  };
  return {
    offset: i,
    expected_length: expected.length,
    got_length: got.length,
    expected_context: show(expected),
    got_context: show(got),
  };
}

function describeDifference(d: FirstDifference): string {
  const end =
    d.offset >= d.got_length
      ? 'yours stops there'
      : d.offset >= d.expected_length
        ? 'yours goes on after the end'
        : 'they differ there';
  return (
    `your string to sign parts from the vector's at byte ${d.offset} (${end}; expected ${d.expected_length} bytes, got ${d.got_length}; ⟦ marks the byte):\n` +
    `    expected: ${d.expected_context}\n` +
    `    got:      ${d.got_context}`
  );
}

function decodeB64(s: unknown): Uint8Array | null {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return null;
  return Buffer.from(s, 'base64');
}

export function judgeSign(vector: SignVector, answer: Obj): Judgement {
  const err = answeredError(answer);
  if (err) return err;
  const headers = answer['headers'];
  const got: Obj = { headers };
  if (answer['string_to_sign_b64'] !== undefined) got['string_to_sign_b64'] = answer['string_to_sign_b64'];
  if (!isObj(headers)) {
    return { status: 'error', got, diagnosis: 'the answer has no "headers" object' };
  }
  const problems: string[] = [];
  const result: Judgement = { status: 'pass', got };
  for (const [name, want] of Object.entries(vector.expected.headers)) {
    const have = headers[name];
    if (have === want) continue;
    if (have === undefined || have === null) {
      problems.push(`header ${name} is missing (expected ${JSON.stringify(want)})`);
      continue;
    }
    if (typeof have !== 'string') {
      problems.push(`header ${name} is not a string: ${JSON.stringify(have)}`);
      continue;
    }
    if (!SIGNATURE_HEADERS.has(name)) {
      problems.push(`header ${name}: expected ${JSON.stringify(want)}, got ${JSON.stringify(have)}`);
      continue;
    }
    problems.push(diagnoseSignature(vector, name, want, have, answer, result));
  }
  if (problems.length === 0) return result;
  result.status = 'fail';
  result.diagnosis = problems.join('\n');
  return result;
}

function diagnoseSignature(
  vector: SignVector,
  name: string,
  want: string,
  have: string,
  answer: Obj,
  result: Judgement,
): string {
  if (!HEX64_ANY.test(have)) {
    return `${name} is not 64 hexadecimal characters: ${JSON.stringify(have.length > 80 ? `${have.slice(0, 80)}…` : have)}`;
  }
  if (!HEX64.test(have) && have.toLowerCase() === want) {
    result.mistake = 'uppercase_hex';
    return `${name} is right but written in uppercase hex: send it as 64 lowercase hexadecimal characters`;
  }
  const lower = have.toLowerCase();
  const mistake = vector.mistakes.find((m) => m.signature === lower);
  const casing = HEX64.test(have) ? '' : ' (and it is written in uppercase hex; send lowercase)';
  if (mistake) {
    result.mistake = mistake.name;
    return `${name} is wrong: you ${mistake.description} (mistake "${mistake.name}")${casing}`;
  }
  const theirs = answer['string_to_sign_b64'];
  const reserialised = reserialisedBody(vector, lower, theirs);
  if (reserialised) {
    result.mistake = 'body_reserialised';
    return (
      `${name} is wrong: you signed the body after parsing it and serialising it again (${reserialised}) ` +
      `instead of the exact bytes sent (mistake "body_reserialised"): sign the bytes you send, as they are${casing}`
    );
  }
  if (theirs !== undefined && vector.string_to_sign_b64 !== undefined) {
    const gotBytes = decodeB64(theirs);
    if (!gotBytes) return `${name} is wrong, and string_to_sign_b64 in the answer is not standard base64`;
    const d = firstDifference(Buffer.from(vector.string_to_sign_b64, 'base64'), gotBytes);
    if (d) {
      result.first_difference = d;
      return `${name} is wrong: ${describeDifference(d)}${casing}`;
    }
    return `${name} is wrong although your string to sign is right: check the key (the secret's UTF-8 bytes) and that the HMAC is HMAC-SHA256${casing}`;
  }
  return (
    `${name} is wrong (expected ${want}, got ${have})${casing}; ` +
    'add "string_to_sign_b64" to your answers to be told at which byte your string to sign parts from the vector\'s'
  );
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Whether a wrong x-signature comes from a body that was parsed and written again: the same JSON
 * value as the body sent, other bytes. With the implementation's string to sign that is seen
 * directly, whatever serialiser wrote it; without it, the signature is compared with what known
 * serialisers would give. Returns how the body was written, or null.
 */
function reserialisedBody(vector: SignVector, signature: string, theirs: unknown): string | null {
  const input = vector.input;
  const method = text(input['method']).toUpperCase();
  if (method === 'GET' || !('url' in input)) return null;
  const body = Buffer.from(text(input['body_b64']), 'base64');
  const value = parseJsonBytes(body);
  if (value === undefined) return null;
  const head = Buffer.from(`${text(input['merchant_id'])}${text(input['timestamp'])}${method}${text(input['url'])}`, 'utf8');
  const named = (bytes: Buffer) => SERIALISERS.find((s) => Buffer.from(serialise(value, s.style), 'utf8').equals(bytes))?.name;
  const theirBytes = theirs === undefined ? null : decodeB64(theirs);
  if (theirBytes) {
    if (theirBytes.length < head.length || !head.equals(theirBytes.subarray(0, head.length))) return null;
    const signedBody = Buffer.from(theirBytes.subarray(head.length));
    if (signedBody.equals(body)) return null;
    const parsed = parseJsonBytes(signedBody);
    if (parsed === undefined || !sameJson(parsed, value)) return null;
    const by = named(signedBody);
    const d = firstDifference(body, signedBody);
    return `${signedBody.length} bytes${by ? ` written as ${by}` : ''}, the same JSON value as the ${body.length} bytes sent; they part at byte ${d!.offset} of the body`;
  }
  const key = Buffer.from(text(input['secret']), 'utf8');
  for (const s of SERIALISERS) {
    const bytes = Buffer.from(serialise(value, s.style), 'utf8');
    if (bytes.equals(body)) continue;
    if (createHmac('sha256', key).update(head).update(bytes).digest('hex') === signature) {
      return `your signature is the one for the body written as ${s.name}, ${bytes.length} bytes instead of the ${body.length} sent`;
    }
  }
  return null;
}

function verdictText(valid: boolean, reason: unknown): string {
  return valid ? 'valid' : `invalid (${reason === null || reason === undefined ? 'no reason' : String(reason)})`;
}

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
  const candidates = vector.mistakes.filter((m) => m.answer.valid === valid && m.answer.reason === (valid ? null : reason)).map((m) => m.name);
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
