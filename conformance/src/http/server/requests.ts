// A row of the server table made into the request it sends: its URL, its body's bytes, and its
// headers, signed as the row says (correctly, or with its one mistake).
import { cardPushBody, json, type bodies } from './bodies.js';
import type { BodyKind, ServerCase, Target } from './cases.js';
import type { Endpoints } from './endpoints.js';
import { signatureHeaders, simplifiedSignatureHeaders, type Forgery, type Sent } from '../forgery.js';
import type { HttpCall } from '../send.js';
import type { Signer } from '../../signing.js';

/** What a case is about: a record made before it (its id, reference_id and, for a card payin, where to push). */
export interface Subject {
  id: string;
  reference: string;
  /** a card payin's next_action.url */
  push?: string;
}

/** What building a request needs of the run. */
export interface RequestContext {
  url: Endpoints;
  me: Signer;
  /** unix seconds now */
  now(): number;
  bodies: ReturnType<typeof bodies>;
  /** the payin the first create made, when it was accepted (another payin, for a push signed for the wrong one) */
  payinId: string | null;
}

const JSON_TYPE = 'application/json';

function urlOf(to: Target, url: Endpoints, subject: Subject | null): string {
  switch (to) {
    case 'payins':
    case 'payouts':
    case 'legacy':
      return url[to];
    case 'payin':
      return url.payin(subject!.id);
    case 'payout':
      return url.payout(subject!.id);
    case 'payin-by-reference':
      return url.payinByRef(subject!.reference);
    case 'payout-by-reference':
      return url.payoutByRef(subject!.reference);
    case 'card-push':
      return subject!.push!;
  }
}

function bodyOf(kind: BodyKind, ctx: RequestContext, reference: string, subject: Subject | null): Buffer {
  const { payin, payout, legacy } = ctx.bodies;
  switch (kind) {
    case 'payin':
      return json(payin(reference));
    case 'payin-pretty':
      return json(payin(reference), true);
    case 'legacy':
      return json(legacy(reference));
    case 'payout':
      return json(payout(reference));
    case 'payout-pretty':
      return json(payout(reference), true);
    case 'card':
      return cardPushBody(subject!.id);
  }
}

/**
 * The request of `row` about `subject`; `reference` is the reference_id of what it creates. A
 * body tampered with is sent changed and signed as it was; a re-serialised one is sent as built
 * and signed as the same JSON pretty-printed.
 */
export function requestOf(row: ServerCase, ctx: RequestContext, subject: Subject | null, reference: string): HttpCall {
  const { body: bodyMistake, payin, scheme, ...rest } = row.forged ?? {};
  const built = row.body ? bodyOf(row.body, ctx, reference, subject) : undefined;
  const forgery: Forgery = { ...rest };
  let body = built;
  if (built && bodyMistake === 'tampered') {
    body = Buffer.from(built.toString('utf8').replace('"amount":149.9', '"amount":1499.9'), 'utf8');
    forgery.body = built;
  }
  if (built && bodyMistake === 'reserialised') forgery.body = json(JSON.parse(built.toString('utf8')), true);
  const sent: Sent = { method: row.method, url: urlOf(row.to, ctx.url, subject), body: body ?? Buffer.alloc(0) };
  if (row.to === 'card-push') {
    if (payin === 'other') forgery.payinId = `${ctx.payinId ?? 'pi'}_other`;
    const signature =
      scheme === 'full'
        ? signatureHeaders(ctx.me, sent, ctx.now(), forgery)
        : simplifiedSignatureHeaders(ctx.me, subject!.id, ctx.now(), forgery);
    return { method: sent.method, url: sent.url, headers: { ...signature, 'content-type': JSON_TYPE, accept: JSON_TYPE }, body: body! };
  }
  const headers: Record<string, string> = { ...signatureHeaders(ctx.me, sent, ctx.now(), forgery), accept: JSON_TYPE };
  if (body) headers['content-type'] = JSON_TYPE;
  return { method: sent.method, url: sent.url, ...(body ? { body } : {}), headers };
}

/** A correctly signed GET of `url`: the lookups that check what a refused call left behind. */
export function signedGet(ctx: Pick<RequestContext, 'me' | 'now'>, url: string): HttpCall {
  const sent: Sent = { method: 'GET', url, body: Buffer.alloc(0) };
  return { method: 'GET', url, headers: { ...signatureHeaders(ctx.me, sent, ctx.now()), accept: JSON_TYPE } };
}

/** A correctly signed POST of a JSON body to `url`: the create that sets up a card payin. */
export function signedPost(ctx: Pick<RequestContext, 'me' | 'now'>, url: string, body: Buffer): HttpCall {
  const sent: Sent = { method: 'POST', url, body };
  return {
    method: 'POST',
    url,
    headers: { ...signatureHeaders(ctx.me, sent, ctx.now()), accept: JSON_TYPE, 'content-type': JSON_TYPE },
    body,
  };
}
