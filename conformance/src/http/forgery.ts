// How the HTTP modes sign what they send: correctly, or with one mistake given as data (a Forgery),
// the same vocabulary for a call to the service and for a webhook. Every signature is computed with
// the runner's own code (signing.ts), never with the toolkit under test.
import { randomBytes } from 'node:crypto';
import { hmacHex, signedHeaders, simplifiedHeaders, type Signer } from '../signing.js';

/** A signer's mistake. Every field left out is signed as it is sent. */
export interface Forgery {
  /** the signature header replaced by 64 random hex digits (no one computed it), or left out */
  signature?: 'random' | 'missing';
  /** signed this many seconds away from now (-70: stale; +70: from the future) */
  shift?: number;
  /** x-timestamp written with a fraction ("<now>.5") and signed over that text */
  fractional?: boolean;
  /** signed for another URL than the one called: this variant of it (see url-variants.ts) */
  url?: (called: string) => string;
  /** signed as this method; the simplified scheme, which signs none, then includes it */
  method?: string;
  /** signed over these bytes instead of the body sent */
  body?: Uint8Array;
  /** signed by and for another merchant id (`<merchant id>_other`), with the right secret */
  merchant?: 'other';
  /** signed with another secret: the right one with this appended */
  secretSuffix?: string;
  /** card pushes: signed for another payin id than the one pushed to */
  payinId?: string;
}

/** What is sent: the method, URL and body bytes a correct signature covers. */
export interface Sent {
  method: string;
  url: string;
  body: Uint8Array;
}

/** The signer who makes the mistake. */
function signerOf(me: Signer, f: Forgery): Signer {
  return { merchantId: f.merchant === 'other' ? `${me.merchantId}_other` : me.merchantId, secret: `${me.secret}${f.secretSuffix ?? ''}` };
}

/** x-timestamp at `now` (unix seconds), as the mistake writes it. */
function timestampOf(now: number, f: Forgery): string {
  return f.fractional ? `${now}.5` : String(now + (f.shift ?? 0));
}

/** The signature header forged as asked, in place (its position among the headers kept). */
function forgeSignature<H extends Record<string, string>>(headers: H, name: keyof H & string, f: Forgery): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  if (f.signature === 'random') out[name] = randomBytes(32).toString('hex');
  if (f.signature === 'missing') delete out[name];
  return out;
}

/** x-merchant-id, x-timestamp and x-signature for what is sent, signed at `now` with the mistake `f` makes. */
export function signatureHeaders(me: Signer, sent: Sent, now: number, f: Forgery = {}): Record<string, string> {
  const headers = signedHeaders(signerOf(me, f), {
    method: f.method ?? sent.method,
    url: f.url ? f.url(sent.url) : sent.url,
    body: f.body ?? sent.body,
    timestamp: timestampOf(now, f),
  });
  return forgeSignature(headers, 'x-signature', f);
}

/** x-merchant-id, x-timestamp and x-simplified-signature of a card push to `payinId`, with the mistake `f` makes. */
export function simplifiedSignatureHeaders(me: Signer, payinId: string, now: number, f: Forgery = {}): Record<string, string> {
  const who = signerOf(me, f);
  const timestamp = timestampOf(now, f);
  const payin = f.payinId ?? payinId;
  const headers = simplifiedHeaders(who, timestamp, payin);
  if (f.method !== undefined) {
    headers['x-simplified-signature'] = hmacHex(who.secret, Buffer.from(`${who.merchantId}${timestamp}${f.method}${payin}`, 'utf8'));
  }
  return forgeSignature(headers, 'x-simplified-signature', f);
}
