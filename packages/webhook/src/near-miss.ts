// When a webhook's signature does not match, the commonest causes are a URL configured a little
// differently from the one the service signs, a body that went through a JSON parser, and a
// secret pasted with whitespace. @pay/sign's catalogue of signing mistakes, in a receiver's view
// (receivedInstead), tries those few variants and names the one that matches, for a log line. A
// receiver configured for one host (`localhost`) while the service signs the URL it calls with
// another (`127.0.0.1`, another port) is the same mistake, named the same way.
//
// Anyone who knows a merchant id can send a forged webhook, so the work is bounded by the bounds
// of every signature diagnosis (@pay/sign's DIAGNOSIS_BODY_LIMIT: nothing is tried past it, a
// handful of HMACs a secret), the hint is worked out only when something reads it (a log line),
// and a handler works out so many a second (hint-budget.ts). It never throws.
import type { HeadersLike } from '@pay/sign';
import { DIAGNOSIS_BODY_LIMIT, readHeader, receivedInstead } from '@pay/sign';

interface Attempt {
  merchantId: string;
  secrets: readonly string[];
  url: string;
  headers: HeadersLike;
  body: string | Uint8Array;
}

function nearMiss(attempt: Attempt): string | undefined {
  const size = typeof attempt.body === 'string' ? attempt.body.length : attempt.body.byteLength;
  if (size > DIAGNOSIS_BODY_LIMIT) return undefined;
  const { merchantId, secrets, url, headers, body } = attempt;
  const timestamp = readHeader(headers, 'x-timestamp');
  const signature = readHeader(headers, 'x-signature');
  const found =
    timestamp === undefined || signature === undefined
      ? undefined
      : receivedInstead({ merchantId, secrets, url, host: readHeader(headers, 'host'), timestamp, body, signature });
  if (found !== undefined) return `the signature matches ${found.what}`;
  // Every near miss was tried: what is left is a secret that is not the sender's, or a sender that
  // is not the service. Said without a word about the secret.
  return `no common mistake matches (URL variants, the body re-serialised, a padded secret): the secret set here is most likely not the one the service signs merchant ${merchantId}'s webhooks with (compare it with the merchant secret the service has), or the request is not from the service`;
}

/**
 * The first near miss that would have matched, as a sentence for logs; when none does, that the
 * secret is the likeliest cause; undefined for a body past the size limit (nothing was tried). Never throws.
 */
export function lazyHint(attempt: Attempt): string | undefined {
  try {
    return nearMiss(attempt);
  } catch {
    return undefined; // a hint is a courtesy: nothing about it may turn a refusal into a crash
  }
}
