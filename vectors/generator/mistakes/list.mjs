// Turns mistaken signers' HMAC inputs into a vector's list of named mistakes.
import { hmacHex } from '../bytes.mjs';

/**
 * Runs every builder, keeps those that change the signature. Two mistakes giving the same
 * signature would make a runner's diagnosis ambiguous, so that is a generator error: change
 * the vector instead.
 */
export function listMistakes(id, expectedSignature, attempts) {
  const mistakes = [];
  for (const { name, description, key, message } of attempts) {
    const signature = hmacHex(key, message);
    if (signature === expectedSignature) continue;
    const twin = mistakes.find((m) => m.signature === signature);
    if (twin) throw new Error(`${id}: mistakes ${twin.name} and ${name} give the same signature`);
    mistakes.push({ name, description, signature });
  }
  return mistakes;
}
