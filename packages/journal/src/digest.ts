// The digest of a create's body, kept with its intent: which body a reference_id was first sent
// with, without keeping the body itself (it holds the customer's personal data).

/** SHA-256 of the body's JSON, lowercase hex. */
export async function bodyDigest(body: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}
