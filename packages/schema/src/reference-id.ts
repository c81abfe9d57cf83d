// A reference_id for a create the caller gave none. The interface has no idempotency key: the
// reference_id is the only handle by which a create whose answer was lost can be found, so it is
// known before the request leaves. The client makes one when it sends, the journal when it
// records the intent (before the client sees the body): one rule, here.

/**
 * A random UUID (version 4). From `getRandomValues`, not `randomUUID`: browsers give
 * `randomUUID` only to secure contexts, and the client also runs on a page served over http from
 * localhost.
 */
export function newReferenceId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
