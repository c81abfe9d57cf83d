// The card-data push: the card of a payin, sent to the push address its `next_action` gave (or
// `{card_proxy_url}/v1/push/<token>/`), signed with x-simplified-signature. Card data goes only
// to an https address (or a loopback one, or a host listed in allowHttpHosts), and only under
// cardProxyUrl when that is configured.
// Nothing about the card leaves this module except in the request body: not in errors, events,
// or the raw answer (a PAN or CSC the receiver echoes is masked there).
import { type CardPushRequest, ENDPOINTS, maskPan, PayinLookupResponse } from '@pay/schema';
import type { Operation, RawResponse } from './errors.js';
import { InvalidRequestError } from './errors.js';
import { bodyJson } from './json.js';
import type { Result } from './lookup.js';
import { retrying } from './observe.js';
import { plainHttpAllowed, type Settings } from './options.js';
import { answerError, type Dated, isSuccess, readRecord } from './response.js';
import { backoffMs, sleep } from './retry.js';
import type { Signer } from './signer.js';
import type { Call } from './call-types.js';
import { send } from './call.js';
import { componentProblem, maskPushUrl, urlOf } from './urls.js';

/** Card data: `pan` (12 to 19 digits), `exp_month` (`01`-`12`), `exp_year` (four digits), `csc`. */
export type Card = CardPushRequest['card'];

/**
 * Where to push a payin's card: the payin id and the push address of its create answer
 * (`next_action.url`), or its one-time token (the address is then built on `cardProxyUrl`).
 */
export type PushTarget = { readonly payinId: string; readonly url: string } | { readonly payinId: string; readonly token: string };

const OPERATION: Operation = 'payins.pushCard';
const encoder = /* @__PURE__ */ new TextEncoder();

/** The push address of a target, or the problems that make it unusable. */
export function pushAddress(settings: Settings, target: PushTarget): string | InvalidRequestError {
  const fail = (path: string, message: string) => new InvalidRequestError(OPERATION, [{ path, message }]);
  if (target === null || typeof target !== 'object') return fail('', 'the target must be { payinId, url } or { payinId, token }');
  const problem = componentProblem(target.payinId, false);
  if (problem !== undefined) return fail('payinId', problem);
  const { cardProxyUrl } = settings;
  if ('token' in target) {
    if (cardProxyUrl === undefined) return fail('token', 'pushing by token needs the cardProxyUrl option of createClient');
    const tokenProblem = componentProblem(target.token, true);
    if (tokenProblem !== undefined) return fail('token', tokenProblem);
    return urlOf(cardProxyUrl, ENDPOINTS.pushCard, { token: target.token });
  }
  const url = (target as { url?: unknown }).url;
  if (typeof url !== 'string') return fail('url', "must be the push address (the payin's next_action.url)");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('url', 'must be an absolute URL');
  }
  // The same rule as baseUrl's: a sandbox reached by name (allowHttpHosts) answers with push
  // addresses on that name, which must be usable as given.
  if (!(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && plainHttpAllowed(parsed.hostname, settings.allowHttpHosts)))) {
    return fail('url', 'card data is sent only over https (plain http only to loopback hosts and hosts listed in allowHttpHosts)');
  }
  if (cardProxyUrl !== undefined && !parsed.href.startsWith(`${cardProxyUrl}/`)) {
    return fail('url', `card data is sent only to addresses under cardProxyUrl (${cardProxyUrl}/)`);
  }
  return parsed.href;
}

/**
 * Masks the card's number and security code wherever the answer repeats them, however it spells
 * them: the number grouped (`4242 4242 …`, `4242-4242-…`, `+`, `%20`) or with its digits
 * JSON-escaped (`\u0034242…`: the error's reason and hint are parsed from this text, so an escape
 * left here would come back as the digits), and the security code quoted or after its key
 * (`"csc":987`, `cvv=987`, `cvc: 987`).
 */
function redactor(card: Card): (text: string) => string {
  const pan = String(card.pan).replace(/\D/g, '');
  const csc = String(card.csc);
  const panPattern = pan.length >= 12 ? spelled(pan) : undefined;
  const cscDigits = /^\d{3,4}$/.test(csc) ? [...csc].map(digit).join('') : undefined;
  const cscByKey = cscDigits && new RegExp(`((?:csc|cvv2?|cvc2?|security[ _-]?code)["']?\\s*[:=]\\s*["']?)${cscDigits}(?!\\d)`, 'gi');
  const cscQuoted = cscDigits && new RegExp(`"${cscDigits}"`, 'g');
  return (text) => {
    let out = panPattern === undefined ? text : text.replace(panPattern, maskPan(pan));
    // A bare JSON number after its key becomes a string: the answer stays JSON (its error is read from it).
    if (cscByKey) out = out.replace(cscByKey, (_m, key: string) => (/["']\s*:\s*$/.test(key) ? `${key}"***"` : `${key}***`));
    if (cscQuoted) out = out.replace(cscQuoted, '"***"');
    return out;
  };
}

/** A digit as an answer may write it: itself, or JSON-escaped (`\u0034`). */
function digit(d: string): string {
  return `(?:${d}|\\\\u003${d})`;
}

/** The pattern of a card number in any grouping (up to three of space, `.`, `-`, `+`, `/`, `_`, `%20` between digits). */
function spelled(digits: string): RegExp {
  const separator = '(?:[\\s.+/_-]|%20|%2[bBdD]|\\\\u0020){0,3}';
  return new RegExp([...digits].map(digit).join(separator), 'g');
}

/**
 * Pushes the card. Sent again only when it provably never left (connection refused): a push
 * whose answer was lost is not repeated, because the token is single-use; look the payin up to
 * see where it stands.
 */
export async function pushCard(
  call: Call,
  signer: Signer,
  url: string,
  payinId: string,
  card: Card,
): Promise<Result<Dated<PayinLookupResponse> | null>> {
  const bytes = encoder.encode(bodyJson({ payin_id: payinId, card }));
  for (let sends = 1; ; sends++) {
    const outcome = await send(call, {
      endpoint: ENDPOINTS.pushCard,
      method: 'POST',
      url,
      headers: signer.push(payinId),
      body: bytes,
      shownUrl: maskPushUrl(url),
      redact: redactor(card),
    });
    if (outcome.kind === 'aborted') throw outcome.reason;
    if (outcome.kind === 'failed') {
      if (outcome.sent || sends > call.settings.retries) throw outcome.error;
      const delayMs = backoffMs(sends);
      if (call.settings.clock.now() + delayMs >= call.deadline) throw outcome.error;
      retrying(call, { operation: OPERATION, attempt: call.attempts + 1, delayMs, reason: outcome.reason });
      if (!(await sleep(call.settings.clock, delayMs, call.signal))) throw call.signal?.reason;
      continue;
    }
    const response = outcome.response;
    if (!isSuccess(response.status)) throw answerError(OPERATION, response);
    return { data: pushedPayin(response, payinId), response };
  }
}

/**
 * The payin as a 2xx push answer shows it, or null. The interface does not show the push answer
 * (the sandbox answers with the payin's lookup record), so an answer that is not this payin's
 * record (no body, not JSON, another shape, another payin) is no error: the service accepted the
 * card, and only the record's status is ever read as its outcome.
 */
function pushedPayin(response: RawResponse, payinId: string): Dated<PayinLookupResponse> | null {
  try {
    const payin = readRecord<PayinLookupResponse>(OPERATION, response, PayinLookupResponse);
    return payin.id === payinId ? payin : null;
  } catch {
    return null;
  }
}
