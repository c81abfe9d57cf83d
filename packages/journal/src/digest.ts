// The digest of a create's body, kept with its intent: which body a reference_id was first sent
// with, without keeping the body itself (it holds the customer's personal data). node:crypto, which
// Node, Bun and Deno all have, hashes in this thread: Web Crypto's digest is a round trip through
// the thread pool on every create, several times the hash itself (pnpm bench).
import { createHash } from 'node:crypto';

/** SHA-256 of the body's JSON, lowercase hex. */
export function bodyDigest(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}
