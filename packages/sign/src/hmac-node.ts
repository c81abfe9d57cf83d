// HMAC-SHA256 on node:crypto (OpenSSL): selected by the `node` condition of `#hmac`, so Node gets
// native speed. Strings go to OpenSSL as UTF-8 without a JavaScript copy; bytes as given.
/// <reference types="node" />
import type { KeyObject } from 'node:crypto';
import { createHmac, createSecretKey } from 'node:crypto';
import type { Part } from './bytes.js';

/** Which backend this module is; benchmarks and tests print it. */
export const backend = 'node';

// A merchant signs with one secret (two while rotating), so the key prepared for the last secret
// is kept: OpenSSL then skips encoding the secret on every call, which is most of what this
// package adds to a bare createHmac on small bodies.
let lastSecret: string | undefined;
let lastKey: KeyObject | undefined;

function keyFor(secret: string): KeyObject {
  if (secret !== lastSecret || lastKey === undefined) {
    lastKey = createSecretKey(secret, 'utf8');
    lastSecret = secret;
  }
  return lastKey;
}

/** Lowercase hex HMAC-SHA256 of the concatenated parts (strings as UTF-8) under `secret` (UTF-8). */
export function hmacHex(secret: string, parts: readonly Part[]): string {
  const mac = createHmac('sha256', keyFor(secret));
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
}
