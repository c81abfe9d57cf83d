// Byte helpers shared by both backends and the string-to-sign builder.

/** A piece of the string to sign: text (encoded as UTF-8) or exact bytes. */
export type Part = string | Uint8Array;

const encoder = /* @__PURE__ */ new TextEncoder();

/** UTF-8 bytes of a string (lone surrogates become U+FFFD, as in every UTF-8 encoder). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** The parts as one byte array, in order. */
export function concat(parts: readonly Part[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? utf8(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ,
 * so a forger learns nothing from timing about how much of a guessed signature was right.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
