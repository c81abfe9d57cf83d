// When a webhook's signature does not match, the commonest causes are a URL configured a little
// differently from the one the service signs, a body that went through a JSON parser, and a
// secret pasted with whitespace. Trying those few variants tells the merchant which, in a log
// line, at the cost of at most a handful of HMACs.
import type { HeadersLike } from '@pay/sign';
import { verifyRequest } from '@pay/sign';

interface Attempt {
  merchantId: string;
  secret?: string;
  secrets?: readonly string[];
  url: string;
  headers: HeadersLike;
  body: string | Uint8Array;
  now?: number;
  toleranceSeconds?: number;
}

// Re-serialising costs a parse; past this size it is not worth it for a hint.
const REPARSE_LIMIT = 64 * 1024;

function urlVariants(url: string): [string, string][] {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const variants: [string, string][] = [];
  const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  variants.push([toggled + query, path.endsWith('/') ? 'the URL without its trailing slash' : 'the URL with a trailing slash']);
  if (/^https:/i.test(url)) variants.push([`http:${url.slice(6)}`, 'the http:// form of the URL']);
  else variants.push([`https:${url.slice(5)}`, 'the https:// form of the URL']);
  if (query) variants.push([path, 'the URL without its query string']);
  return variants;
}

function bodyVariants(body: string | Uint8Array): [string, string][] {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (text.length > REPARSE_LIMIT) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return [
    [JSON.stringify(value), 'the body re-serialised as minified JSON'],
    [JSON.stringify(value, null, 2), 'the body re-serialised as pretty-printed JSON'],
  ];
}

/** The first near miss that would have matched, as a sentence for logs; undefined if none does. */
export function nearMiss(attempt: Attempt): string | undefined {
  const secrets = attempt.secrets ?? (attempt.secret === undefined ? [] : [attempt.secret]);
  const matches = (change: Partial<Attempt>) => {
    const { merchantId, url, headers, body, now, toleranceSeconds } = { ...attempt, ...change };
    const keys = change.secrets ?? secrets;
    return verifyRequest({ merchantId, secrets: keys, method: 'POST', url, headers, body, now, toleranceSeconds }).ok;
  };
  for (const [url, what] of urlVariants(attempt.url)) {
    if (matches({ url })) {
      return `the signature matches ${what} (${url}): configure url as exactly the address the service signs`;
    }
  }
  for (const [body, what] of bodyVariants(attempt.body)) {
    if (body !== attempt.body && matches({ body })) {
      return `the signature matches ${what}: the body reached the verifier re-serialised; verify the raw bytes received`;
    }
  }
  const trimmed = secrets.map((s) => s.trim());
  if (trimmed.some((s, i) => s !== secrets[i] && s.length > 0) && matches({ secrets: trimmed.filter((s) => s.length > 0) })) {
    return 'the signature matches the secret without its surrounding whitespace: the configured secret has stray spaces or newlines';
  }
  return undefined;
}
