// Server mode: a service implementation tested over real HTTP. Correctly signed calls to every
// endpoint must be accepted; forged, tampered, stale, mis-addressed and mis-attributed calls must
// be refused (never a 2xx), and a refused create must leave nothing behind. Every request is
// signed here, with the runner's own code (signing.ts), never with the toolkit under test.
import { randomBytes } from 'node:crypto';
import { PayinCreateResponse, PayinLookupResponse, PayoutCreateResponse, PayoutLookupResponse, validate } from '@pay/schema';
import { httpResult, is2xx, jsonOf, send, type HttpAnswer, type HttpCall } from '../send.js';
import { signedHeaders, simplifiedHeaders, stringToSign, hmacHex, type Signer } from '../../signing.js';
import type { CaseResult, RunResult } from '../../types.js';

export interface ServerOptions {
  /** the service base URL, e.g. http://127.0.0.1:4010 (no trailing slash needed) */
  baseUrl: string;
  /** the card-data endpoint's base URL, e.g. http://127.0.0.1:4010/card-proxy */
  cardProxyUrl: string;
  merchantId: string;
  secret: string;
  timeoutMs: number;
  insecure?: boolean;
  /** the webhook_url given in creates (the service will try to deliver there) */
  webhookUrl?: string;
  /** the runner's version, for the report */
  version: string;
  /** unix seconds now; the wall clock by default (the service judges with its own) */
  now?: () => number;
}

/** A response schema of `@pay/schema`. */
type Schema = Parameters<typeof validate>[0];

/** What each case expects of the service. */
const ACCEPTS = 'server_accepts';
const REFUSES = 'server_refuses';

/** What a check of a refused call's effects says when it cannot look. */
const UNCHECKED = 'unchecked';

const json = (value: unknown, pretty = false) => Buffer.from(pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value), 'utf8');

/** The same URL with its path's trailing slash toggled (query kept). */
export function toggleSlash(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  return (path.endsWith('/') ? path.slice(0, -1) : `${path}/`) + (q < 0 ? '' : url.slice(q));
}

function otherScheme(url: string): string {
  return url.startsWith('https://') ? `http://${url.slice(8)}` : `https://${url.slice(7)}`;
}

/** The URL with another spelling of its host: 127.0.0.1 ↔ localhost, else the host in capitals. */
function otherHost(url: string): string {
  const m = /^([a-z]+:\/\/)([^/:?#]+)(.*)$/i.exec(url);
  if (!m) return url;
  const host = m[2]!;
  const other = host === '127.0.0.1' ? 'localhost' : host === 'localhost' ? '127.0.0.1' : host.toUpperCase();
  return `${m[1]}${other}${m[3]}`;
}

/** The bodies of the interface's creates, each with its own reference_id. */
function bodies(tag: string, webhookUrl: string) {
  const customer = {
    id: `cus_${tag}`,
    email: 'zoe.lefevre@example.com',
    first_name: 'Zoé',
    last_name: 'Lefèvre',
    phone: { country_code: '+33', number: '612345678' },
  };
  const redirect_urls = { fail: 'https://shop.example/checkout/fail', success: 'https://shop.example/checkout/done' };
  const payin = (reference_id: string, extra: Record<string, unknown> = {}) => ({
    reference_id,
    payment: { amount: 149.9, currency: 'EUR' },
    customer: {
      ...customer,
      date_of_birth: '1990-04-12',
      address: { addr_line_1: '12 rue de la Paix', city: 'Paris', zip: '75002', country: 'FR' },
    },
    browser_data: { user_agent: 'pay-conformance', ip_address: '203.0.113.24' },
    webhook_url: webhookUrl,
    redirect_urls,
    language: 'fr',
    ...extra,
  });
  const payout = (reference_id: string) => ({
    reference_id,
    payment: { amount: 250, currency: 'GBP' },
    customer: { ...customer, phone: { country_code: '+44', number: '7700900123' } },
    webhook_url: webhookUrl,
  });
  const legacy = (reference_id: string) => {
    const { language: _language, ...rest } = payin(reference_id);
    return rest;
  };
  return { payin, payout, legacy };
}

/** A PAN the sandbox and most test environments treat as a successful card; never reported. */
const TEST_CARD = { pan: '4242424242424242', exp_month: '12', csc: '123' };

export async function runServer(o: ServerOptions): Promise<RunResult> {
  const started = Date.now();
  const base = o.baseUrl.replace(/\/+$/, '');
  const proxy = o.cardProxyUrl.replace(/\/+$/, '');
  const now = () => String(Math.floor(o.now ? o.now() : Date.now() / 1000));
  const me: Signer = { merchantId: o.merchantId, secret: o.secret };
  const tag = randomBytes(4).toString('hex');
  let n = 0;
  /** A reference_id that needs percent-encoding in a query: a space, a slash and an "é". */
  const ref = (what: string) => `conf ${tag}/${what}-é${++n}`;
  const { payin, payout, legacy } = bodies(tag, o.webhookUrl ?? 'https://webhook.invalid/pay-conformance');
  const url = {
    payins: `${base}/v2/merchants/payins/`,
    payouts: `${base}/v2/merchants/payouts/`,
    legacy: `${base}/v1/merchants/payins/`,
    payin: (id: string) => `${base}/v2/merchants/payins/${encodeURIComponent(id)}`,
    payout: (id: string) => `${base}/v2/merchants/payouts/${encodeURIComponent(id)}`,
    payinByRef: (r: string) => `${base}/v2/merchants/payins/?reference_id=${encodeURIComponent(r)}`,
    payoutByRef: (r: string) => `${base}/v2/merchants/payouts/?reference_id=${encodeURIComponent(r)}`,
  };
  const http = (call: HttpCall) => send(call, { timeoutMs: o.timeoutMs, ...(o.insecure ? { insecure: true } : {}) });
  /** A call signed correctly (or as `over` says) for what it sends. */
  const signed = (method: string, target: string, body?: Buffer, over: { url?: string; method?: string; body?: Buffer; timestamp?: string; signer?: Signer } = {}): HttpCall => {
    const timestamp = over.timestamp ?? now();
    const headers: Record<string, string> = {
      ...signedHeaders(over.signer ?? me, { method: over.method ?? method, url: over.url ?? target, body: over.body ?? body ?? Buffer.alloc(0), timestamp }),
      accept: 'application/json',
    };
    if (body) headers['content-type'] = 'application/json';
    return { method, url: target, headers, ...(body ? { body } : {}) };
  };

  const redact = (text: string) => text.split(o.secret).join('‹secret›').split(TEST_CARD.pan).join('‹card›');
  const cases: CaseResult[] = [];
  const record = (category: string, id: string, description: string, expect: string, r: Partial<CaseResult> & Pick<CaseResult, 'status'>, t0: number) => {
    cases.push({
      id: `${category}/${id}`,
      category,
      command: 'http',
      description,
      flags: [],
      expected: expect,
      got: null,
      duration_ms: Math.round(performance.now() - t0),
      ...r,
    });
  };
  const failed = (e: unknown) => ({ status: 'error' as const, diagnosis: `the request failed: ${(e as Error).message}` });
  const got = (a: HttpAnswer) => ({ http_status: a.status });

  /**
   * A correctly signed call that must be accepted; returns its JSON answer, or null. `answer` is
   * the body the interface gives the answer: it is checked as leniently as a merchant's client
   * reads it (unknown fields and statuses pass). An answer that is not that body fails the case but
   * is still returned, so the calls that need its id are still tried.
   */
  const accepted = async (
    id: string,
    description: string,
    call: HttpCall,
    check?: (body: Record<string, unknown> | null) => string | null,
    answer?: Schema,
  ) => {
    const t0 = performance.now();
    try {
      const a = await http(call);
      const body = jsonOf(a);
      if (!is2xx(a.status)) {
        // What the service said, short, and never with the secret or the card number in it.
        const said = body && typeof body['error'] === 'object' ? ` (it said ${redact(JSON.stringify(body['error'])).slice(0, 300)})` : '';
        record(ACCEPTS, id, description, '2xx', { status: 'fail', got: got(a), diagnosis: `a correctly signed call got HTTP ${a.status}${said}; it must be accepted: ${description}` }, t0);
        return null;
      }
      const problem = check?.(body) ?? null;
      if (problem) {
        record(ACCEPTS, id, description, '2xx', { status: 'fail', got: got(a), diagnosis: `accepted with HTTP ${a.status}, but ${problem}` }, t0);
        return null;
      }
      const shape = answer === undefined ? null : validate(answer, body);
      if (shape !== null && !shape.ok) {
        const listed = shape.errors.slice(0, 5).map((e) => (e.path ? `${e.path} ${e.message}` : e.message));
        const more = shape.errors.length > 5 ? `; and ${shape.errors.length - 5} more` : '';
        // Paths name the service's own keys: redacted like everything else it says.
        const diagnosis = redact(`accepted with HTTP ${a.status}, but the answer is not the body the interface describes: ${listed.join('; ')}${more}`);
        record(ACCEPTS, id, description, '2xx', { status: 'fail', got: got(a), diagnosis }, t0);
        return body;
      }
      record(ACCEPTS, id, description, '2xx', { status: 'pass', got: got(a) }, t0);
      return body ?? {};
    } catch (e) {
      record(ACCEPTS, id, description, '2xx', failed(e), t0);
      return null;
    }
  };
  const hasId = (b: Record<string, unknown> | null) => (b && typeof b['id'] === 'string' && b['id'] !== '' ? null : 'the answer has no "id"');

  /**
   * A call that must be refused. `leftBehind` looks for what it must not have done (a record
   * stored, a status changed) and describes it, or says null.
   */
  const refused = async (id: string, description: string, call: HttpCall, leftBehind?: () => Promise<string | null>) => {
    const t0 = performance.now();
    try {
      const a = await http(call);
      if (is2xx(a.status)) {
        record(REFUSES, id, description, 'non-2xx', { status: 'fail', got: got(a), diagnosis: `the service accepted it with HTTP ${a.status}; it must refuse it: ${description}` }, t0);
        return;
      }
      const left = leftBehind ? await leftBehind() : null;
      if (left === UNCHECKED) {
        record(REFUSES, id, description, 'non-2xx', { status: 'error', got: got(a), diagnosis: `refused with HTTP ${a.status}, but whether it changed anything could not be checked: the lookup by reference_id does not work (see server_accepts/get-payin-by-reference)` }, t0);
        return;
      }
      if (left) {
        record(REFUSES, id, description, 'non-2xx', { status: 'fail', got: got(a), diagnosis: `refused with HTTP ${a.status}, but ${left}: a refused call must change nothing` }, t0);
        return;
      }
      record(REFUSES, id, description, 'non-2xx', { status: 'pass', got: got(a) }, t0);
    } catch (e) {
      record(REFUSES, id, description, 'non-2xx', failed(e), t0);
    }
  };
  /** Not run, because what it needs could not be set up. */
  const skipped = (category: string, id: string, description: string, why: string) =>
    record(category, id, description, category === ACCEPTS ? '2xx' : 'non-2xx', { status: 'not_run', diagnosis: `not run: ${why}` }, performance.now());

  // --- accepted: every endpoint, correctly signed -------------------------------------------

  const minRef = ref('payin-min');
  const created = await accepted(
    'create-payin-v2-minified',
    'create payin v2 (POST, trailing slash), minified body, signed over its exact bytes',
    signed('POST', url.payins, json(payin(minRef))),
    hasId,
    PayinCreateResponse,
  );
  await accepted(
    'create-payin-v2-pretty',
    'create payin v2 with a pretty-printed body with non-ASCII names (2-space indent, final newline): the exact bytes are signed',
    signed('POST', url.payins, json(payin(ref('payin-pretty')), true)),
    hasId,
    PayinCreateResponse,
  );
  await accepted('create-payin-v1-legacy', 'create payin, legacy v1 endpoint', signed('POST', url.legacy, json(legacy(ref('legacy')))), hasId, PayinCreateResponse);
  const poRef = ref('payout');
  const createdPayout = await accepted('create-payout-v2', 'create payout v2, pretty-printed body', signed('POST', url.payouts, json(payout(poRef), true)), hasId, PayoutCreateResponse);

  const payinId = typeof created?.['id'] === 'string' ? created['id'] : null;
  const payoutId = typeof createdPayout?.['id'] === 'string' ? createdPayout['id'] : null;
  const same = (field: string, want: string) => (b: Record<string, unknown> | null) =>
    b && b[field] === want ? null : `the answer's ${field} is ${JSON.stringify(b?.[field])}, not ${JSON.stringify(want)}`;
  const lookup = async (
    id: string,
    description: string,
    needs: string | null,
    call: (x: string) => HttpCall,
    check: (b: Record<string, unknown> | null) => string | null,
    answer: Schema,
  ) => {
    if (!needs) return skipped(ACCEPTS, id, description, 'the create it looks up was not accepted');
    return accepted(id, description, call(needs), check, answer);
  };
  await lookup('get-payin-by-id', 'payin lookup by id (GET, no trailing slash, empty body signed)', payinId, (x) => signed('GET', url.payin(x)), same('id', payinId ?? ''), PayinLookupResponse);
  const byRef = await lookup(
    'get-payin-by-reference',
    'payin lookup by reference_id, the reference percent-encoded in the query ("?reference_id=conf%20…%2F…-%C3%A9…"): the URL is signed exactly as called',
    payinId && minRef,
    (r) => signed('GET', url.payinByRef(r)),
    same('reference_id', minRef),
    PayinLookupResponse,
  );
  await lookup('get-payout-by-id', 'payout lookup by id', payoutId, (x) => signed('GET', url.payout(x)), same('id', payoutId ?? ''), PayoutLookupResponse);
  await lookup('get-payout-by-reference', 'payout lookup by reference_id, percent-encoded', payoutId && poRef, (r) => signed('GET', url.payoutByRef(r)), same('reference_id', poRef), PayoutLookupResponse);

  // The card push goes to the address the create answered (next_action.url), on the card proxy.
  const cardPayin = async (what: string): Promise<{ id: string; push: string } | string> => {
    try {
      const a = await http(signed('POST', url.payins, json(payin(ref(what), { method: 'card' }))));
      const b = jsonOf(a);
      const next = b?.['next_action'] as { url?: unknown } | undefined;
      if (!is2xx(a.status) || typeof b?.['id'] !== 'string') return `the card payin's create got HTTP ${a.status}`;
      if (typeof next?.url !== 'string' || !next.url.startsWith(`${proxy}/`)) {
        return `the card payin's next_action.url (${JSON.stringify(next?.url)}) is not an address under --card-proxy-url ${proxy}`;
      }
      return { id: b['id'], push: next.url };
    } catch (e) {
      return `the card payin's create failed: ${(e as Error).message}`;
    }
  };
  const pushBody = (payinId: string) => json({ payin_id: payinId, card: { pan: TEST_CARD.pan, exp_month: TEST_CARD.exp_month, exp_year: String(new Date().getUTCFullYear() + 3), csc: TEST_CARD.csc } });
  const push = (target: { id: string; push: string }, headers: Record<string, string>): HttpCall => ({
    method: 'POST',
    url: target.push,
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: pushBody(target.id),
  });
  {
    const description = 'card push to the address the create answered, signed with x-simplified-signature (merchant id + timestamp + payin id)';
    const target = await cardPayin('card');
    if (typeof target === 'string') skipped(ACCEPTS, 'card-push', description, target);
    else await accepted('card-push', description, push(target, simplifiedHeaders(me, now(), target.id)));
  }

  // --- refused: creates, each then looked up, and nothing may have been stored --------------

  const lookupsWork = byRef !== null && byRef !== undefined;
  /** A payin create that must be refused; afterwards its reference_id must find nothing. */
  const refusedCreate = async (id: string, description: string, make: (reference: string) => HttpCall, endpoint = url.payins) => {
    const reference = ref(id);
    const call = make(reference);
    const byReference = endpoint === url.payouts ? url.payoutByRef : url.payinByRef;
    await refused(id, description, call, async () => {
      if (!lookupsWork) return UNCHECKED;
      const a = await http(signed('GET', byReference(reference)));
      return is2xx(a.status) ? `a lookup by its reference_id finds it (HTTP ${a.status}): the refused create was stored` : null;
    });
  };
  const create = (reference: string) => json(payin(reference));
  await refusedCreate('forged-signature', 'create payin with a signature no one computed (64 random hex)', (r) => {
    const call = signed('POST', url.payins, create(r));
    call.headers['x-signature'] = randomBytes(32).toString('hex');
    return call;
  });
  await refusedCreate('wrong-secret', 'create payin signed with another secret', (r) => signed('POST', url.payins, create(r), { signer: { ...me, secret: `${o.secret}-not-it` } }));
  await refusedCreate('tampered-body', 'create payin whose body was changed after signing (amount 149.9 signed, 1499.9 sent)', (r) => {
    const signedBody = create(r);
    return signed('POST', url.payins, Buffer.from(signedBody.toString('utf8').replace('"amount":149.9', '"amount":1499.9'), 'utf8'), { body: signedBody });
  });
  await refusedCreate('body-reserialised', 'create payin signed over a pretty-printed body and sent minified (the same JSON, other bytes)', (r) =>
    signed('POST', url.payins, create(r), { body: json(payin(r), true) }),
  );
  await refusedCreate('expired', 'create payin signed 70 s ago: outside the 60 s tolerance', (r) => signed('POST', url.payins, create(r), { timestamp: String(Number(now()) - 70) }));
  await refusedCreate('future-dated', 'create payin dated 70 s ahead: outside the 60 s tolerance', (r) => signed('POST', url.payins, create(r), { timestamp: String(Number(now()) + 70) }));
  await refusedCreate('fractional-timestamp', 'create payin with x-timestamp "<now>.5", signed over that text', (r) => signed('POST', url.payins, create(r), { timestamp: `${now()}.5` }));
  await refusedCreate('missing-signature', 'create payin without x-signature', (r) => {
    const call = signed('POST', url.payins, create(r));
    delete call.headers['x-signature'];
    return call;
  });
  await refusedCreate('slash-toggled', `create payin called at ${url.payins} but signed for ${toggleSlash(url.payins)} (trailing slash dropped)`, (r) =>
    signed('POST', url.payins, create(r), { url: toggleSlash(url.payins) }),
  );
  await refusedCreate('other-host', `create payin signed for ${otherHost(url.payins)} but called at ${url.payins}`, (r) => signed('POST', url.payins, create(r), { url: otherHost(url.payins) }));
  await refusedCreate('other-scheme', `create payin signed for ${otherScheme(url.payins).split(':')[0]}:// but called over ${url.payins.split(':')[0]}://`, (r) =>
    signed('POST', url.payins, create(r), { url: otherScheme(url.payins) }),
  );
  await refusedCreate('wrong-merchant', 'create payin signed correctly with this secret, but by and for another merchant id', (r) =>
    signed('POST', url.payins, create(r), { signer: { merchantId: `${o.merchantId}_other`, secret: o.secret } }),
  );
  await refusedCreate('method-confused', 'create payin sent as POST but signed as a PUT of the same URL and body', (r) => {
    const body = create(r);
    const call = signed('POST', url.payins, body);
    call.headers['x-signature'] = hmacHex(o.secret, stringToSign(o.merchantId, call.headers['x-timestamp']!, 'PUT', url.payins, body));
    return call;
  });
  await refusedCreate('payout-forged', 'create payout with a signature no one computed', (r) => {
    const call = signed('POST', url.payouts, json(payout(r)));
    call.headers['x-signature'] = randomBytes(32).toString('hex');
    return call;
  }, url.payouts);
  await refusedCreate('legacy-expired', 'legacy v1 create payin signed 70 s ago', (r) => signed('POST', url.legacy, json(legacy(r)), { timestamp: String(Number(now()) - 70) }));

  // --- refused: lookups -----------------------------------------------------------------------

  const refusedLookup = async (id: string, description: string, make: (payinId: string, reference: string) => HttpCall) => {
    if (!payinId) return skipped(REFUSES, id, description, 'the create it looks up was not accepted');
    return refused(id, description, make(payinId, minRef));
  };
  await refusedLookup('lookup-forged', 'payin lookup by id with a random signature', (x) => {
    const call = signed('GET', url.payin(x));
    call.headers['x-signature'] = randomBytes(32).toString('hex');
    return call;
  });
  await refusedLookup('lookup-query-dropped', 'payin lookup by reference_id signed for the URL without its query string', (_x, r) =>
    signed('GET', url.payinByRef(r), undefined, { url: url.payins }),
  );
  await refusedLookup('lookup-slash-toggled', 'payin lookup by id called without a trailing slash, signed with one', (x) => signed('GET', url.payin(x), undefined, { url: toggleSlash(url.payin(x)) }));
  await refusedLookup('lookup-method-confused', 'payin lookup sent as GET but signed as a POST (empty body) of the same URL', (x) => signed('GET', url.payin(x), undefined, { method: 'POST' }));
  await refusedLookup('lookup-wrong-merchant', 'payin lookup signed with this secret by and for another merchant id', (x) =>
    signed('GET', url.payin(x), undefined, { signer: { merchantId: `${o.merchantId}_other`, secret: o.secret } }),
  );
  await refusedLookup('lookup-expired', 'payin lookup signed 70 s ago', (x) => signed('GET', url.payin(x), undefined, { timestamp: String(Number(now()) - 70) }));

  // --- refused: card pushes; afterwards the payin must still be new ---------------------------

  const refusedPush = async (id: string, description: string, headers: (target: { id: string; push: string }) => Record<string, string>) => {
    const target = await cardPayin(id);
    if (typeof target === 'string') return skipped(REFUSES, id, description, target);
    return refused(id, description, push(target, headers(target)), async () => {
      const a = await http(signed('GET', url.payin(target.id)));
      const status = jsonOf(a)?.['status'];
      return is2xx(a.status) && status !== 'new' ? `the payin's status became ${JSON.stringify(status)}` : null;
    });
  };
  await refusedPush('card-push-forged', 'card push with a random x-simplified-signature', () => ({ ...simplifiedHeaders(me, now(), 'x'), 'x-simplified-signature': randomBytes(32).toString('hex') }));
  await refusedPush('card-push-other-payin', 'card push signed for another payin id', () => simplifiedHeaders(me, now(), `${payinId ?? 'pi'}_other`));
  await refusedPush('card-push-expired', 'card push signed 70 s ago', (t) => simplifiedHeaders(me, String(Number(now()) - 70), t.id));
  await refusedPush('card-push-method-included', 'card push whose simplified signature includes the method (merchant id + timestamp + "POST" + payin id)', (t) => {
    const ts = now();
    return { 'x-merchant-id': o.merchantId, 'x-timestamp': ts, 'x-simplified-signature': hmacHex(o.secret, Buffer.from(`${o.merchantId}${ts}POST${t.id}`, 'utf8')) };
  });
  await refusedPush('card-push-full-signature', 'card push signed with x-signature (the full scheme) instead of x-simplified-signature', (t) =>
    signedHeaders(me, { method: 'POST', url: t.push, body: pushBody(t.id), timestamp: now() }),
  );

  return httpResult('server', `${base} (card proxy ${proxy}, merchant ${o.merchantId})`, o.version, started, cases);
}
