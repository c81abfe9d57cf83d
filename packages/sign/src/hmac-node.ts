// HMAC-SHA256 on node:crypto (OpenSSL): selected by the `node` condition of `#hmac`, so Node gets
// native speed.
//
// Webhooks and calls are small, and for a small message most of createHmac's cost is building the
// Hmac object, not hashing. So HMAC is computed as RFC 2104 defines it, with two one-shot
// SHA-256 calls (`crypto.hash`, no object) over pads prepared once per secret:
// H((K ^ ipad) || message) then H((K ^ opad) || inner). Large messages, and runtimes without
// `crypto.hash`, use createHmac, which streams the parts without copying them.
/// <reference types="node" />
import * as crypto from 'node:crypto';
import type { Part } from './bytes.js';

/** Which backend this module is; benchmarks and tests print it. */
export const backend = 'node';

const BLOCK = 64;
/** Largest message hashed through the scratch buffer; longer ones stream through createHmac. */
const ONE_SHOT_LIMIT = 16 * 1024;
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: string) => unknown }).hash;

// A merchant signs with one secret (two while rotating), so the pads of the last secret are kept.
let lastSecret: string | undefined;
let key: crypto.KeyObject;
// scratch: K ^ ipad, then the message; outer: K ^ opad, then the inner digest.
const scratch = Buffer.allocUnsafe(BLOCK + ONE_SHOT_LIMIT);
const outer = Buffer.alloc(BLOCK + 32);

function prepare(secret: string): void {
  let k = Buffer.from(secret, 'utf8');
  if (k.length > BLOCK) k = crypto.createHash('sha256').update(k).digest(); // RFC 2104: long keys are hashed first
  for (let i = 0; i < BLOCK; i++) {
    const byte = i < k.length ? k[i]! : 0;
    scratch[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  key = crypto.createSecretKey(secret, 'utf8');
  lastSecret = secret;
}

/**
 * A lower bound of the parts' UTF-8 size, without encoding: a string never has fewer UTF-8 bytes
 * than UTF-16 units. A message surely too long for the scratch buffer goes straight to createHmac
 * instead of being copied in first.
 */
function leastBytes(parts: readonly Part[]): number {
  let n = 0;
  for (const part of parts) n += typeof part === 'string' ? part.length : part.byteLength;
  return n;
}

/** Lowercase hex HMAC-SHA256 of the concatenated parts (strings as UTF-8) under `secret` (UTF-8). */
export function hmacHex(secret: string, parts: readonly Part[]): string {
  if (secret !== lastSecret) prepare(secret);
  if (oneShot !== undefined && leastBytes(parts) <= ONE_SHOT_LIMIT) {
    let at = BLOCK;
    let fits = true;
    for (const part of parts) {
      if (typeof part === 'string') {
        // A UTF-16 unit is at most 3 bytes of UTF-8: check the room before writing.
        if (part.length * 3 > scratch.length - at && Buffer.byteLength(part) > scratch.length - at) {
          fits = false;
          break;
        }
        at += scratch.write(part, at, 'utf8');
      } else {
        if (part.byteLength > scratch.length - at) {
          fits = false;
          break;
        }
        scratch.set(part, at);
        at += part.byteLength;
      }
    }
    if (fits) {
      (oneShot('sha256', scratch.subarray(0, at), 'buffer') as Buffer).copy(outer, BLOCK);
      return oneShot('sha256', outer, 'hex') as string;
    }
  }
  const mac = crypto.createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
}
