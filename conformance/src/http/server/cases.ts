// Server mode's cases as a table: each row is plain data saying what the case sends (where, which
// body, signed how) and what it must get. run.ts runs every row, in order, through the one case
// recorder. Correctly signed calls to every endpoint must be accepted; forged, tampered, stale,
// mis-addressed and mis-attributed calls must be refused, and a refused call must change nothing.
import {
  PayinCreateResponse,
  PayinLookupResponse,
  PayoutCreateResponse,
  PayoutLookupResponse,
  type TransactionKind,
  type validate,
} from '@pay/schema';
import type { Endpoints } from './endpoints.js';
import type { Forgery } from '../forgery.js';
import type { Expect } from '../recorder.js';
import { otherHost, otherScheme, schemeOf, toggleSlash, withoutQuery } from '../url-variants.js';

/** A response schema of `@pay/schema`. */
export type Schema = Parameters<typeof validate>[0];

/** Where a request goes: a collection (creates), the case's subject by id or reference, or the subject's card-push address. */
export type Target = 'payins' | 'payouts' | 'legacy' | 'payin' | 'payout' | 'payin-by-reference' | 'payout-by-reference' | 'card-push';

/** The targets a POST creates a record at: the case makes a reference_id for it. */
export const CREATES_AT: ReadonlySet<Target> = new Set(['payins', 'payouts', 'legacy']);

/** What a request sends: a create's body (minified or pretty-printed), or the card push for the subject. */
export type BodyKind = 'payin' | 'payin-pretty' | 'legacy' | 'payout' | 'payout-pretty' | 'card';

/** How a server case signs wrong: a Forgery, with its bytes and ids named rather than given. */
interface ServerForgery extends Omit<Forgery, 'body' | 'payinId'> {
  /** tampered: the amount changed after signing; reserialised: signed pretty-printed, sent minified */
  body?: 'tampered' | 'reserialised';
  /** card push: signed for another payin's id */
  payin?: 'other';
  /** card push: signed with x-signature (the full scheme) instead of x-simplified-signature */
  scheme?: 'full';
}

/** One case of server mode. */
export interface ServerCase {
  name: string;
  expect: Expect;
  /** a description, or one that names the URLs it calls */
  description: string | ((url: Endpoints) => string);
  /** what must exist first: the payin or payout a case before created (kept), or a fresh card payin */
  needs?: TransactionKind | 'card-payin';
  /** the label of the reference_id of what the case creates, its own or its card payin's (default: its name) */
  reference?: string;
  method: 'GET' | 'POST';
  to: Target;
  body?: BodyKind;
  /** the mistake it is signed with; signed correctly when absent */
  forged?: ServerForgery;
  /** accepted: the answer must have an id, or echo the subject's id or reference; and be the body `schema` describes */
  answer?: { check?: 'has-id' | 'echoes-id' | 'echoes-reference'; schema?: Schema };
  /** accepted create: later cases use what it created */
  keeps?: TransactionKind;
  /** refused: what must be as it was afterwards (nothing stored under its reference; the subject payin still new) */
  unchanged?: 'nothing-stored' | 'payin-status';
}

/** The accepted case whose success shows lookups by reference work, which checking a refused create needs. */
export const LOOKUP_BY_REFERENCE = 'get-payin-by-reference';

/** Every case, in the order they run. */
export const SERVER_CASES: readonly ServerCase[] = [
  // --- accepted: every endpoint, correctly signed ---------------------------------------------
  {
    name: 'create-payin-v2-minified',
    expect: '2xx',
    reference: 'payin-min',
    method: 'POST',
    to: 'payins',
    body: 'payin',
    description: 'create payin v2 (POST, trailing slash), minified body, signed over its exact bytes',
    answer: { check: 'has-id', schema: PayinCreateResponse },
    keeps: 'payin',
  },
  {
    name: 'create-payin-v2-pretty',
    expect: '2xx',
    reference: 'payin-pretty',
    method: 'POST',
    to: 'payins',
    body: 'payin-pretty',
    description:
      'create payin v2 with a pretty-printed body with non-ASCII names (2-space indent, final newline): the exact bytes are signed',
    answer: { check: 'has-id', schema: PayinCreateResponse },
  },
  {
    name: 'create-payin-v1-legacy',
    expect: '2xx',
    reference: 'legacy',
    method: 'POST',
    to: 'legacy',
    body: 'legacy',
    description: 'create payin, legacy v1 endpoint',
    answer: { check: 'has-id', schema: PayinCreateResponse },
  },
  {
    name: 'create-payout-v2',
    expect: '2xx',
    reference: 'payout',
    method: 'POST',
    to: 'payouts',
    body: 'payout-pretty',
    description: 'create payout v2, pretty-printed body',
    answer: { check: 'has-id', schema: PayoutCreateResponse },
    keeps: 'payout',
  },
  {
    name: 'get-payin-by-id',
    expect: '2xx',
    needs: 'payin',
    method: 'GET',
    to: 'payin',
    description: 'payin lookup by id (GET, no trailing slash, empty body signed)',
    answer: { check: 'echoes-id', schema: PayinLookupResponse },
  },
  {
    name: LOOKUP_BY_REFERENCE,
    expect: '2xx',
    needs: 'payin',
    method: 'GET',
    to: 'payin-by-reference',
    description:
      'payin lookup by reference_id, the reference percent-encoded in the query ("?reference_id=conf%20…%2F…-%C3%A9…"): the URL is signed exactly as called',
    answer: { check: 'echoes-reference', schema: PayinLookupResponse },
  },
  {
    name: 'get-payout-by-id',
    expect: '2xx',
    needs: 'payout',
    method: 'GET',
    to: 'payout',
    description: 'payout lookup by id',
    answer: { check: 'echoes-id', schema: PayoutLookupResponse },
  },
  {
    name: 'get-payout-by-reference',
    expect: '2xx',
    needs: 'payout',
    method: 'GET',
    to: 'payout-by-reference',
    description: 'payout lookup by reference_id, percent-encoded',
    answer: { check: 'echoes-reference', schema: PayoutLookupResponse },
  },
  // The card push goes to the address the create answered (next_action.url), on the card proxy.
  {
    name: 'card-push',
    expect: '2xx',
    needs: 'card-payin',
    reference: 'card',
    method: 'POST',
    to: 'card-push',
    body: 'card',
    description: 'card push to the address the create answered, signed with x-simplified-signature (merchant id + timestamp + payin id)',
  },

  // --- refused: creates; afterwards their reference_id must find nothing -----------------------
  refusedCreate('forged-signature', 'create payin with a signature no one computed (64 random hex)', { signature: 'random' }),
  refusedCreate('wrong-secret', 'create payin signed with another secret', { secretSuffix: '-not-it' }),
  refusedCreate('tampered-body', 'create payin whose body was changed after signing (amount 149.9 signed, 1499.9 sent)', {
    body: 'tampered',
  }),
  refusedCreate('body-reserialised', 'create payin signed over a pretty-printed body and sent minified (the same JSON, other bytes)', {
    body: 'reserialised',
  }),
  refusedCreate('expired', 'create payin signed 70 s ago: outside the 60 s tolerance', { shift: -70 }),
  refusedCreate('future-dated', 'create payin dated 70 s ahead: outside the 60 s tolerance', { shift: 70 }),
  refusedCreate('fractional-timestamp', 'create payin with x-timestamp "<now>.5", signed over that text', { fractional: true }),
  refusedCreate('missing-signature', 'create payin without x-signature', { signature: 'missing' }),
  refusedCreate(
    'slash-toggled',
    (u) => `create payin called at ${u.payins} but signed for ${toggleSlash(u.payins)} (trailing slash dropped)`,
    { url: toggleSlash },
  ),
  refusedCreate('other-host', (u) => `create payin signed for ${otherHost(u.payins)} but called at ${u.payins}`, { url: otherHost }),
  refusedCreate(
    'other-scheme',
    (u) => `create payin signed for ${schemeOf(otherScheme(u.payins))}:// but called over ${schemeOf(u.payins)}://`,
    { url: otherScheme },
  ),
  refusedCreate('wrong-merchant', 'create payin signed correctly with this secret, but by and for another merchant id', {
    merchant: 'other',
  }),
  refusedCreate('method-confused', 'create payin sent as POST but signed as a PUT of the same URL and body', { method: 'PUT' }),
  {
    ...refusedCreate('payout-forged', 'create payout with a signature no one computed', { signature: 'random' }),
    to: 'payouts',
    body: 'payout',
  },
  { ...refusedCreate('legacy-expired', 'legacy v1 create payin signed 70 s ago', { shift: -70 }), to: 'legacy', body: 'legacy' },

  // --- refused: lookups of the payin created above ---------------------------------------------
  refusedLookup('lookup-forged', 'payin lookup by id with a random signature', 'payin', { signature: 'random' }),
  refusedLookup('lookup-query-dropped', 'payin lookup by reference_id signed for the URL without its query string', 'payin-by-reference', {
    url: withoutQuery,
  }),
  refusedLookup('lookup-slash-toggled', 'payin lookup by id called without a trailing slash, signed with one', 'payin', {
    url: toggleSlash,
  }),
  refusedLookup('lookup-method-confused', 'payin lookup sent as GET but signed as a POST (empty body) of the same URL', 'payin', {
    method: 'POST',
  }),
  refusedLookup('lookup-wrong-merchant', 'payin lookup signed with this secret by and for another merchant id', 'payin', {
    merchant: 'other',
  }),
  refusedLookup('lookup-expired', 'payin lookup signed 70 s ago', 'payin', { shift: -70 }),

  // --- refused: card pushes, each to a new card payin; afterwards the payin must still be new ---
  refusedPush('card-push-forged', 'card push with a random x-simplified-signature', { signature: 'random' }),
  refusedPush('card-push-other-payin', 'card push signed for another payin id', { payin: 'other' }),
  refusedPush('card-push-expired', 'card push signed 70 s ago', { shift: -70 }),
  refusedPush(
    'card-push-method-included',
    'card push whose simplified signature includes the method (merchant id + timestamp + "POST" + payin id)',
    { method: 'POST' },
  ),
  refusedPush('card-push-full-signature', 'card push signed with x-signature (the full scheme) instead of x-simplified-signature', {
    scheme: 'full',
  }),
];

/** A payin create signed with one mistake: it must be refused and store nothing. */
function refusedCreate(name: string, description: ServerCase['description'], forged: ServerForgery): ServerCase {
  return { name, expect: 'non-2xx', description, method: 'POST', to: 'payins', body: 'payin', forged, unchanged: 'nothing-stored' };
}

/** A lookup of the kept payin signed with one mistake: it must be refused. */
function refusedLookup(name: string, description: string, to: Target, forged: ServerForgery): ServerCase {
  return { name, expect: 'non-2xx', description, needs: 'payin', method: 'GET', to, forged };
}

/** A card push signed with one mistake: it must be refused and leave its payin new. */
function refusedPush(name: string, description: string, forged: ServerForgery): ServerCase {
  return {
    name,
    expect: 'non-2xx',
    description,
    needs: 'card-payin',
    method: 'POST',
    to: 'card-push',
    body: 'card',
    forged,
    unchanged: 'payin-status',
  };
}
