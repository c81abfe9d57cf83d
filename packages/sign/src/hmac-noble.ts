// HMAC-SHA256 in pure JavaScript (@noble/hashes): the default backend, for every runtime that is
// not Node (browsers, Deno, Bun, edge workers). Selected by the `default` condition of `#hmac`.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Part } from './bytes.js';
import { utf8 } from './bytes.js';

/** Which backend this module is; benchmarks and tests print it. */
export const backend = 'noble';

/** Lowercase hex HMAC-SHA256 of the concatenated parts (strings as UTF-8) under `secret` (UTF-8). */
export function hmacHex(secret: string, parts: readonly Part[]): string {
  const mac = hmac.create(sha256, utf8(secret));
  for (const part of parts) mac.update(typeof part === 'string' ? utf8(part) : part);
  return bytesToHex(mac.digest());
}
