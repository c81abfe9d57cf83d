// Judges a signing answer (sign_request, sign_simplified) against its vector, and when a signature
// is wrong says why: a named mistake, a re-serialised body, uppercase hex, or the byte where the
// string to sign parts from the vector's.
import { answeredError, type Judgement, type Obj } from './judgement.js';
import { describeDifference, firstDifference } from './difference.js';
import { SERIALISERS, parseJsonBytes, sameJson, serialise } from './serialisers.js';
import { hmacHex, stringToSign } from '../signing.js';
import type { SignVector } from '../types.js';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX64_ANY = /^[0-9a-fA-F]{64}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const SIGNATURE_HEADERS = new Set(['x-signature', 'x-simplified-signature']);

/** Standard base64 (padded, no other characters) decoded; null when it is not. */
function decodeB64(s: unknown): Uint8Array | null {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return null;
  return Buffer.from(s, 'base64');
}

/** Compares the headers answered with the vector's; every wrong one is diagnosed. */
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

function diagnoseSignature(vector: SignVector, name: string, want: string, have: string, answer: Obj, result: Judgement): string {
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
  // What is signed before the body: the string to sign of an empty body.
  const signing = [text(input['merchant_id']), text(input['timestamp']), method, text(input['url'])] as const;
  const head = stringToSign(...signing, new Uint8Array(0));
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
  for (const s of SERIALISERS) {
    const bytes = Buffer.from(serialise(value, s.style), 'utf8');
    if (bytes.equals(body)) continue;
    if (hmacHex(text(input['secret']), stringToSign(...signing, bytes)) === signature) {
      return `your signature is the one for the body written as ${s.name}, ${bytes.length} bytes instead of the ${body.length} sent`;
    }
  }
  return null;
}
