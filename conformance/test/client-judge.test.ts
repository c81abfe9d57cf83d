// Client mode's judges on their own, against hand-made requests: what an SDK must put on the wire
// (the query encoded, the amount digit for digit, the body as given) and how a route is read.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgeAnswer, readAnswer, type ClientAnswer } from '../src/http/client/answer.js';
import {
  CLIENT_CASES,
  SDK_TIMEOUT_MS,
  SDK_TOTAL_TIMEOUT_MS,
  SHORT_TIMEOUT_MS,
  commandLimitOf,
  timeoutOf,
  totalTimeoutOf,
} from '../src/http/client/cases.js';
import { amountProblem, bodyProblem, sameDecimal } from '../src/http/client/body.js';
import { judgeOnce, judgePushOnce } from '../src/http/client/once.js';
import { BASE_PATH, readHead, type Exchange } from '../src/http/client/proxy.js';
import { queryProblem, routeOf } from '../src/http/client/routes.js';
import { judgeTotal, judgeTrickled } from '../src/http/client/time-limits.js';
import { judgeWire } from '../src/http/client/wire.js';
import { secretOf } from '../src/http/redact.js';

describe('queryProblem', () => {
  const reference = 'a b/ä?#&=+%€1';
  it('accepts the reference percent-encoded, whichever safe characters are left as they are', () => {
    expect(queryProblem(`reference_id=${encodeURIComponent(reference)}`, reference)).toBeNull();
    expect(queryProblem('reference_id=a%20b%2F%C3%A4%3F%23%26%3D%2B%25%E2%82%AC1', reference)).toBeNull();
    expect(queryProblem('reference_id=a%20b/%C3%A4?%23%26%3D%2B%25%E2%82%AC1', reference)).toBeNull();
  });
  it('refuses a reference not encoded, encoded as a form (+ for a space), or another one, each named', () => {
    expect(queryProblem(`reference_id=${reference}`, reference)).toMatchObject({
      mistake: 'query_misencoded',
      text: expect.stringMatching(/not percent-encoded/),
    });
    const form = queryProblem('reference_id=a+b%2F%C3%A4%3F%23%26%3D%2B%25%E2%82%AC1', reference);
    expect(form?.mistake).toBe('query_form_encoded');
    expect(form?.text).toMatch(/form-encoded .* writes a space as "\+"/);
    expect(form?.text).not.toMatch(/not percent-encoded/);
    // A "+" that is not a space (the reference's own "+" unescaped) is no form encoding.
    expect(queryProblem('reference_id=a%20b%2F%C3%A4%3F%23%26%3D+%25%E2%82%AC1', reference)?.mistake).toBe('query_misencoded');
    expect(queryProblem('reference_id=other', reference)?.text).toMatch(/names the reference_id "other"/);
    expect(queryProblem('ref=x', reference)?.text).toMatch(/not reference_id=/);
  });
});

describe('amounts and bodies', () => {
  it('compares decimals exactly, never through binary floating point', () => {
    expect(sameDecimal('149.90', '149.9')).toBe(true);
    expect(sameDecimal('1.499e2', '149.9')).toBe(true);
    expect(sameDecimal('0.30000000000000004', '0.3')).toBe(false);
    expect(sameDecimal('10', '10.00')).toBe(true);
  });
  it('wants the amount digit for digit, and names each way of changing it', () => {
    const mistake = (literal: string, given: string) => amountProblem(literal, given)?.mistake ?? null;
    expect(mistake('149.90', '149.90')).toBeNull();
    expect(mistake('149.9', '149.90')).toBe('amount_digits_changed');
    expect(mistake('1.499e2', '149.90')).toBe('amount_digits_changed');
    expect(mistake('14990', '149.90')).toBe('amount_minor_units');
    expect(mistake('1010', '10.10')).toBe('amount_minor_units');
    expect(mistake('125050', '1250.50')).toBe('amount_minor_units');
    expect(mistake('0.30000000000000004', '0.30')).toBe('amount_binary_float');
    expect(mistake('10.099999999999999', '10.10')).toBe('amount_binary_float');
    expect(mistake('"149.90"', '149.90')).toBe('amount_as_string');
    expect(mistake('149.91', '149.90')).toBe('amount_wrong');
    expect(amountProblem('14990', '149.90')?.text).toMatch(/minor units/);
    expect(amountProblem('149.9', '149.90')?.text).not.toMatch(/floating point/);
  });
  const params = { reference_id: 'r', payment: { amount: '0.30', currency: 'EUR' }, name: ' Zoë\u2028x ' };
  it('accepts the same JSON value in any bytes, with the amount as a number with the digits given', () => {
    expect(
      bodyProblem(Buffer.from('{"name":" Zo\\u00eb\\u2028x ","payment":{"currency":"EUR","amount":0.30},"reference_id":"r"}'), params),
    ).toBeNull();
  });
  it('names what differs: an amount through a float, as a string, a value trimmed, a field changed or added', () => {
    const problem = (body: string) => bodyProblem(Buffer.from(body), params);
    expect(problem('{"reference_id":"r","payment":{"amount":0.30000000000000004,"currency":"EUR"},"name":" Zoë\u2028x "}')).toMatchObject({
      mistake: 'amount_binary_float',
      text: expect.stringMatching(/digit for digit/),
    });
    expect(problem('{"reference_id":"r","payment":{"amount":"0.30","currency":"EUR"},"name":" Zoë\u2028x "}')?.text).toMatch(/JSON string/);
    expect(problem('{"reference_id":"r","payment":{"amount":0.30,"currency":"EUR"},"name":"Zoë\u2028x"}')).toMatchObject({
      mistake: 'whitespace_trimmed',
      text: expect.stringMatching(/^name is sent as "Zoë\u2028x", not " Zoë\u2028x "/),
    });
    expect(problem('{"reference_id":"r","payment":{"amount":0.30,"currency":"EUR"},"name":"Zoe"}')).toEqual({
      mistake: 'body_not_as_given',
      text: 'name is "Zoe", not " Zoë\u2028x "',
    });
    expect(problem('{"reference_id":"r","payment":{"amount":0.30,"currency":"EUR"},"name":" Zoë\u2028x ","x":1}')?.text).toMatch(
      /^x was not given, but sent/,
    );
  });
});

describe('routeOf', () => {
  it('reads every endpoint, and a create or lookup with its slash dropped as what it meant', () => {
    expect(routeOf('POST', '/v2/merchants/payins/')).toEqual({ kind: 'create', resource: 'payins', version: 'v2', slash: true });
    expect(routeOf('POST', '/v1/merchants/payins')).toEqual({ kind: 'create', resource: 'payins', version: 'v1', slash: false });
    expect(routeOf('GET', '/v2/merchants/payouts/po_1')).toEqual({ kind: 'lookup-id', resource: 'payouts', rawId: 'po_1', slash: false });
    expect(routeOf('GET', '/v2/merchants/payins?reference_id=x')).toMatchObject({
      kind: 'lookup-ref',
      slash: false,
      rawQuery: 'reference_id=x',
    });
    expect(routeOf('POST', '/card-proxy/v1/push/tok/')).toEqual({ kind: 'push', token: 'tok' });
    expect(routeOf('GET', '/followed-redirect/v2/merchants/payins/pi_1')).toEqual({ kind: 'trap' });
    expect(routeOf('DELETE', '/v2/merchants/payins/pi_1')).toEqual({ kind: 'other' });
  });
});

describe('judgeOnce: the runner counts, never the SDK', () => {
  const reference = 'ref 1';
  const ctx = { resource: 'payins' as const, reference, before: 0, beforeIsOurs: true, toleranceSeconds: 5, settleSeconds: 2 };
  const record = { id: 'pi_1', kind: 'payin', reference_id: reference };
  let seq = 0;
  /** One request as the proxy logs it, `at` seconds into the run. */
  const ex = (at: number, route: Exchange['route'], upstream: number | null, delivered: Exchange['delivered']): Exchange => ({
    seq: ++seq,
    at: 1_000_000_000 + at * 1000,
    origin: 'http://127.0.0.1:9',
    method: route.kind === 'create' ? 'POST' : 'GET',
    rawTarget: '/',
    target: '/',
    rawHeaders: [['x-timestamp', String(1_000_000 + Math.floor(at))]],
    headers: { 'x-timestamp': String(1_000_000 + Math.floor(at)) },
    body: Buffer.from(JSON.stringify({ reference_id: reference })),
    route,
    action: null,
    upstream: upstream === null ? null : { status: upstream, body: Buffer.from('{"id":"pi_1"}') },
    delivered,
    deliveredAt: 1_000_000_000 + at * 1000 + 10,
    deliveredBody: delivered?.kind === 'answer' ? Buffer.from('{"id":"pi_1"}') : null,
  });
  const create = { kind: 'create', resource: 'payins', version: 'v2', slash: true } as const;
  const lookup = { kind: 'lookup-ref', resource: 'payins', rawQuery: 'reference_id=ref%201', slash: true } as const;
  const ok = { outcome: 'ok', record: { id: 'pi_1' } } as const;
  const dropped = { kind: 'dropped' } as const;

  it('passes a lost create found by lookup', () => {
    const log = [ex(0, create, 200, dropped), ex(0.1, lookup, 200, { kind: 'answer', status: 200 })];
    expect(judgeOnce(log, ctx, [record], ok)).toEqual([]);
  });
  it('names a blind re-send after a committed attempt, whatever the service did with the second', () => {
    const log = [ex(0, create, 200, dropped), ex(0.1, create, 409, { kind: 'answer', status: 409 })];
    expect(judgeOnce(log, ctx, [record], ok).map((f) => f.mistake)).toEqual(['blind_resend']);
  });
  it('names a re-send while the first attempt could still be accepted, even if it never was', () => {
    const log = [
      ex(0, create, null, dropped),
      ex(1, lookup, 404, { kind: 'answer', status: 404 }),
      ex(1.5, create, 200, { kind: 'answer', status: 200 }),
    ];
    expect(judgeOnce(log, ctx, [record], ok).map((f) => f.mistake)).toEqual(['resend_before_proven']);
  });
  it('names a failure reported for a create that exists, and one reported without proof', () => {
    const failed: ClientAnswer = { outcome: 'error', kind: 'network', status: null, code: null, paths: [], message: null };
    expect(judgeOnce([ex(0, create, 200, dropped)], ctx, [record], failed).map((f) => f.mistake)).toEqual(['reported_failed_but_exists']);
    expect(judgeOnce([ex(0, create, null, dropped)], ctx, [], failed).map((f) => f.mistake)).toEqual(['failed_without_proof']);
  });
  it('names a create reported done that does not exist', () => {
    expect(judgeOnce([ex(0, create, null, dropped)], ctx, [], ok).map((f) => f.mistake)).toEqual(['reported_done_but_missing']);
  });
  it('names what a re-send took for proof: a miss inside the settle window, a proxy page', () => {
    const miss = { kind: 'answer', status: 404 } as const;
    // Created (its answer lost), missed at ts + 6 (tolerance + 1), re-sent at ts + 6.2: settle_seconds forgotten.
    const settle = [ex(0, create, 200, dropped), ex(6.05, lookup, 404, miss), ex(6.2, create, 409, { kind: 'answer', status: 409 })];
    expect(judgeOnce(settle, ctx, [record], ok).map((f) => f.mistake)).toEqual(['settle_ignored']);
    // The same past the settle window: lookups that lag.
    const lag = [ex(0, create, 200, dropped), ex(8.1, lookup, 404, miss), ex(8.2, create, 409, { kind: 'answer', status: 409 })];
    expect(judgeOnce(lag, ctx, [record], ok).map((f) => f.mistake)).toEqual(['resend_after_lookup_missed']);
    // A 404 the proxy answered itself (an HTML page), whenever it came.
    const first = ex(0, create, 200, dropped);
    const page = { ...ex(8.1, lookup, null, miss), action: 'answer' as const };
    const html = [first, page, ex(8.2, create, 409, { kind: 'answer', status: 409 })];
    expect(judgeOnce(html, ctx, [record], ok).map((f) => f.mistake)).toEqual(['proxy_404_as_missing']);
  });
  it('judges a re-send by what the SDK could know: inside the settle window it is a mistake even when the first attempt never was created', () => {
    const miss = { kind: 'answer', status: 404 } as const;
    // Held past its tolerance on a loaded machine, the first attempt was refused as stale (401),
    // and the re-send made the only record: still, nothing had proven the first dead at ts + 6.2.
    const refused = [ex(0, create, 401, dropped), ex(6.05, lookup, 404, miss), ex(6.2, create, 200, { kind: 'answer', status: 200 })];
    expect(judgeOnce(refused, ctx, [record], ok).map((f) => f.mistake)).toEqual(['settle_ignored']);
    expect(judgeOnce(refused, ctx, [record], ok)[0]!.text).toMatch(/could have made two/);
    // Proven dead from ts + 8 (tolerance 5 + 1 + settle 2): a re-send after a miss there is right.
    const proven = [ex(0, create, 401, dropped), ex(8.05, lookup, 404, miss), ex(8.2, create, 200, { kind: 'answer', status: 200 })];
    expect(judgeOnce(proven, ctx, [record], ok)).toEqual([]);
    // "Failed" needs the same proof: a miss inside the settle window, or a proxy's page, is none.
    const failed: ClientAnswer = { outcome: 'error', kind: 'network', status: null, code: null, paths: [], message: null };
    const early = [ex(0, create, 401, dropped), ex(6.05, lookup, 404, miss)];
    expect(judgeOnce(early, ctx, [], failed).map((f) => f.mistake)).toEqual(['failed_without_proof']);
    const page = [ex(0, create, 401, dropped), { ...ex(8.05, lookup, null, miss), action: 'answer' as const }];
    expect(judgeOnce(page, ctx, [], failed).map((f) => f.mistake)).toEqual(['failed_without_proof']);
    expect(judgeOnce([ex(0, create, 401, dropped), ex(8.05, lookup, 404, miss)], ctx, [], failed)).toEqual([]);
  });
  it("a 409 for another transaction's reference: refused is right, taking its record is not", () => {
    const other = { ...ctx, before: 1, beforeIsOurs: false };
    const conflict = [ex(0, create, 409, { kind: 'answer', status: 409 }), ex(0.1, lookup, 200, { kind: 'answer', status: 200 })];
    const refused: ClientAnswer = { outcome: 'error', kind: 'api', status: 409, code: null, paths: [], message: 'reference in use' };
    expect(judgeOnce(conflict, other, [record], refused)).toEqual([]);
    expect(judgeOnce(conflict, other, [record], ok).map((f) => f.mistake)).toEqual(['took_another_record']);
    // The same answers when the record is this create's (an earlier attempt): the record is right, the failure is not.
    const same = { ...ctx, before: 1 };
    expect(judgeOnce(conflict, same, [record], ok)).toEqual([]);
    expect(judgeOnce(conflict, same, [record], refused).map((f) => f.mistake)).toEqual(['reported_failed_but_exists']);
  });
  it('names a card push sent twice', () => {
    const push = { kind: 'push', token: 't' } as const;
    expect(judgePushOnce([ex(0, push, 200, dropped)])).toEqual([]);
    expect(judgePushOnce([ex(0, push, 200, dropped), ex(0.2, push, 409, { kind: 'answer', status: 409 })]).map((f) => f.mistake)).toEqual([
      'push_resent',
    ]);
  });
  it("refuses to judge when its own count and the sandbox's disagree", () => {
    expect(judgeOnce([ex(0, create, 200, dropped)], ctx, [], ok).map((f) => f.mistake)).toEqual(['count_disagrees']);
  });

  describe('a create given no reference_id: every attempt counted, whatever reference it carried', () => {
    const none = { ...ctx, reference: null };
    /** The same request with another body: the reference_id it carried, or none. */
    const carrying = (e: Exchange, ref: string | null): Exchange => ({
      ...e,
      body: Buffer.from(JSON.stringify(ref === null ? { payment: {} } : { reference_id: ref })),
    });
    const own = { id: 'pi_1', kind: 'payin', reference_id: 'uuid-1' };
    const unknown = (referenceId: string | null): ClientAnswer => ({ outcome: 'unknown', referenceId });

    it('passes its own reference looked up, and outcome unknown naming it, or null when none was sent', () => {
      const found = [carrying(ex(0, create, 200, dropped), 'uuid-1'), ex(0.1, lookup, 200, { kind: 'answer', status: 200 })];
      expect(judgeOnce(found, none, [own], ok)).toEqual([]);
      expect(judgeOnce([carrying(ex(0, create, 200, dropped), 'uuid-1')], none, [own], unknown('uuid-1'))).toEqual([]);
      const bare = { ...own, reference_id: null };
      expect(judgeOnce([carrying(ex(0, create, 200, dropped), null)], none, [bare], unknown(null))).toEqual([]);
      // outcome unknown must name what was sent: not null when a reference went, not one that never did.
      for (const [sent, answered] of [
        ['uuid-1', null],
        ['uuid-1', 'uuid-2'],
        [null, 'uuid-2'],
      ] as const) {
        const log = [carrying(ex(0, create, 200, dropped), sent)];
        expect(judgeOnce(log, none, [sent === null ? bare : own], unknown(answered)).map((f) => f.mistake)).toEqual([
          'unknown_without_reference',
        ]);
      }
    });
    it('names a create sent again with no reference_id: two payins', () => {
      const log = [carrying(ex(0, create, 200, dropped), null), carrying(ex(0.2, create, 200, { kind: 'answer', status: 200 }), null)];
      const records = [
        { id: 'pi_1', kind: 'payin', reference_id: null },
        { id: 'pi_2', kind: 'payin', reference_id: null },
      ];
      const found = judgeOnce(log, none, records, { outcome: 'ok', record: { id: 'pi_2' } });
      expect(found.map((f) => f.mistake)).toEqual(['resent_without_reference']);
      expect(found[0]!.text).toMatch(/carries no reference_id .* the service now holds 2 payments where the caller asked for one/);
    });
    it('names a create sent again under a new reference, with one given or not: the count sees both', () => {
      const log = [
        carrying(ex(0, create, 200, dropped), 'uuid-1'),
        carrying(ex(0.2, create, 200, { kind: 'answer', status: 200 }), 'uuid-2'),
      ];
      const records = [own, { id: 'pi_2', kind: 'payin', reference_id: 'uuid-2' }];
      const answer = { outcome: 'ok', record: { id: 'pi_2' } } as const;
      expect(judgeOnce(log, none, records, answer).map((f) => f.mistake)).toEqual(['reference_regenerated']);
      // With one given ("ref 1"), a second attempt under another: counted all the same.
      const given = [ex(0, create, 200, dropped), carrying(ex(0.2, create, 200, { kind: 'answer', status: 200 }), 'uuid-2')];
      const both = [record, { id: 'pi_2', kind: 'payin', reference_id: 'uuid-2' }];
      expect(judgeOnce(given, ctx, both, answer).map((f) => f.mistake)).toEqual(['reference_regenerated']);
      // Not counted, the sandbox's second record would be a disagreement, never a pass.
      expect(judgeOnce(given.slice(0, 1), ctx, both, answer).map((f) => f.mistake)).toEqual(['count_disagrees']);
    });
  });
});

describe("time limits, by the runner's clock", () => {
  const trickled = (at: number, deliveredAt: number, kind: 'answer' | 'truncated'): Exchange => ({
    seq: 1,
    at,
    origin: 'http://127.0.0.1:9',
    method: 'GET',
    rawTarget: '/v2/merchants/payins/pi_1',
    target: '/v2/merchants/payins/pi_1',
    rawHeaders: [],
    headers: {},
    body: Buffer.alloc(0),
    route: routeOf('GET', '/v2/merchants/payins/pi_1'),
    action: 'trickle',
    upstream: { status: 200, body: Buffer.from('{}') },
    delivered: kind === 'answer' ? { kind, status: 200 } : { kind },
    deliveredAt,
    deliveredBody: null,
  });
  it('names an answer read to its end past timeout_ms a limit on each read; one given up in time is right', () => {
    expect(judgeTrickled([trickled(0, 2400, 'truncated')], 800)).toEqual([]);
    expect(judgeTrickled([trickled(0, 700, 'answer')], 800)).toEqual([]);
    const found = judgeTrickled([trickled(0, 2400, 'answer')], 800);
    expect(found.map((f) => f.mistake)).toEqual(['timeout_per_read']);
    expect(found[0]!.text).toMatch(/2400 ms after the request arrived, past timeout_ms \(800 ms\).*bounds each read/);
    // Only an answer the proxy trickled: a slow answer is the service's, not the SDK's doing.
    expect(judgeTrickled([{ ...trickled(0, 2400, 'answer'), action: null }], 800)).toEqual([]);
  });
  it('names a call answered, or still calling the service, past total_timeout_ms and its grace', () => {
    expect(judgeTotal(0, 900, 800, [])).toBeNull();
    expect(judgeTotal(0, 2700, 800, [])).toBeNull();
    expect(judgeTotal(0, 3000, 800, [])?.mistake).toBe('total_timeout_ignored');
    // No answer: named only when its requests went on past the limit (a child stuck otherwise is a plain timeout).
    const request = (at: number) => ({ ...trickled(at, at, 'answer'), action: null });
    expect(judgeTotal(0, null, 800, [request(100), request(2000)])).toBeNull();
    expect(judgeTotal(0, null, 800, [request(100), request(3500), request(5000)])).toMatchObject({
      mistake: 'total_timeout_ignored',
      text: expect.stringMatching(/^was still sending requests 5000 ms after the command \(2 of them past total_timeout_ms/),
    });
  });
});

describe('judgeWire: a request named by what went wrong with it', () => {
  const me = { merchantId: 'm_1', secret: 'sk_test_0123456789abcdef0123456789abcdef' };
  const origin = 'http://127.0.0.1:9';
  const ctx = { me, toleranceSeconds: 4, zone: 'America/St_Johns', sensitive: secretOf(me.secret) };
  // 2027-01-15: St John's is on UTC-03:30 then.
  const at = 1_800_000_000_000;
  const params = { reference_id: 'r', payment: { amount: '149.90', currency: 'EUR' }, name: 'Zoë' };
  const op = { resource: 'payins' as const, create: { version: 'v2' as const, params }, reference: 'r' };
  /** A create as the proxy logs it, signed with node:crypto here (not the runner's code). */
  const create = (
    body: Buffer,
    timestamp: string,
    length = body.length,
    more: [string, string][] = [],
    signedUrl = `${origin}/v2/merchants/payins/`,
  ): Exchange => {
    const signature = createHmac('sha256', me.secret)
      .update(Buffer.concat([Buffer.from(`${me.merchantId}${timestamp}POST${signedUrl}`), body]))
      .digest('hex');
    const rawHeaders: [string, string][] = [
      ['Host', '127.0.0.1:9'],
      ['x-merchant-id', me.merchantId],
      ['x-timestamp', timestamp],
      ['x-signature', signature],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(length)],
      ...more,
    ];
    const headers: Record<string, string> = {};
    for (const [k, v] of rawHeaders)
      headers[k.toLowerCase()] = headers[k.toLowerCase()] === undefined ? v : `${headers[k.toLowerCase()]}, ${v}`;
    return {
      seq: 1,
      at,
      origin,
      method: 'POST',
      rawTarget: '/v2/merchants/payins/',
      target: '/v2/merchants/payins/',
      rawHeaders,
      headers,
      body: body.subarray(0, length),
      route: routeOf('POST', '/v2/merchants/payins/'),
      action: null,
      upstream: null,
      delivered: null,
      deliveredAt: null,
      deliveredBody: null,
    };
  };
  const text = '{"reference_id":"r","payment":{"amount":149.90,"currency":"EUR"},"name":"Zoë"}';
  const seconds = String(at / 1000);

  it('passes a create as it should be', () => {
    expect(judgeWire([create(Buffer.from(text), seconds)], op, ctx)).toEqual([]);
  });
  it('names a timestamp in milliseconds, not a stale re-send', () => {
    const found = judgeWire([create(Buffer.from(text), String(at + 120))], op, ctx);
    expect(found.map((f) => f.mistake)).toEqual(['timestamp_in_milliseconds']);
    expect(found[0]!.text).not.toMatch(/re-send|stale/);
  });
  it("names an x-timestamp off by the child's time-zone offset a time-zone mistake, ahead or behind, never a re-send", () => {
    for (const off of [12_600, -12_600, 12_601, -12_599]) {
      const found = judgeWire([create(Buffer.from(text), String(at / 1000 + off))], op, ctx);
      expect(found.map((f) => f.mistake)).toEqual(['timestamp_time_zone']);
      expect(found[0]!.text).toMatch(new RegExp(`3 h 30 min ${off > 0 ? 'ahead of' : 'behind'} the time the request arrived`));
      expect(found[0]!.text).toMatch(/TZ=America\/St_Johns, UTC−03:30.*not a re-send/);
      expect(found[0]!.text).not.toMatch(/must be signed again/);
    }
    // In a zone of UTC the same mistake shows nothing; a clock merely off is a clock skew.
    for (const off of [7200, -30, 12_610]) {
      const found = judgeWire([create(Buffer.from(text), String(at / 1000 + off))], op, ctx);
      expect(
        found.map((f) => f.mistake),
        String(off),
      ).toEqual(['clock_skew']);
      expect(found[0]!.text).toMatch(/clock, or its conversion to unix time, is off \(not a re-send\)/);
    }
  });
  it('names a request sent again with the x-timestamp of an earlier one, once it is old, a stale re-send', () => {
    const ts = String(at / 1000 - 30);
    const first = { ...create(Buffer.from(text), ts), at: at - 30_000 };
    const again = { ...create(Buffer.from(text), ts), seq: 2 };
    const found = judgeWire([first, again], op, ctx);
    expect(found.map((f) => f.mistake)).toEqual(['stale_timestamp']);
    expect(found[0]!.text).toMatch(/30 s behind .* an earlier request: a re-send must be signed again/);
  });
  it('names a Content-Length that counted characters: the body cut short, not a signature mismatch', () => {
    const bytes = Buffer.from(text);
    const found = judgeWire([create(bytes, seconds, text.length)], op, ctx);
    expect(text.length).toBeLessThan(bytes.length);
    expect(found.map((f) => f.mistake)).toEqual(['content_length_in_characters']);
    expect(found[0]!.text).toMatch(/counts the UTF-8 bytes sent, not characters/);
  });
  it('names a singleton header sent on two lines, from the raw lines, whatever their case; a list header repeated is fine', () => {
    const twice = create(Buffer.from(text), seconds, undefined, [['content-type', 'application/json; charset=utf-8']]);
    const found = judgeWire([twice], op, ctx);
    expect(found.map((f) => f.mistake)).toEqual(['header_repeated']);
    expect(found[0]!.text).toMatch(/^sent 2 Content-Type header lines \(Content-Type, content-type\)/);
    const timestamps = judgeWire([create(Buffer.from(text), seconds, undefined, [['X-Timestamp', seconds]])], op, ctx);
    expect(timestamps.map((f) => f.mistake)).toContain('header_repeated');
    expect(judgeWire([create(Buffer.from(text), seconds, undefined, [['Accept', 'application/json']])], op, ctx)).toEqual([]);
  });
  it('names the secret sent in a header, in any encoding the runner masks, never quoting it', () => {
    const basic = Buffer.from(`${me.merchantId}:${me.secret}`).toString('base64');
    for (const [name, value, how] of [
      ['Authorization', `Bearer ${me.secret}`, 'as it is'],
      ['Authorization', `Basic ${basic}`, 'in base64'],
      ['X-Api-Key', me.secret.slice('sk_test_'.length), 'as it is'],
    ] as const) {
      const found = judgeWire([create(Buffer.from(text), seconds, undefined, [[name, value]])], op, ctx);
      expect(found.map((f) => f.mistake)).toEqual(['secret_in_header']);
      expect(found[0]!.text).toMatch(new RegExp(`^sent the secret ${how} in its ${name} header`));
      expect(found[0]!.text).not.toContain(me.secret.slice(8));
    }
  });
  it('names a string sent Unicode-normalised (NFKC) by its cause, not as a generic body mismatch', () => {
    const given = { ...params, name: 'Gri\ufb01n １２ Ⅻ ｶﾅ²' };
    const nfkc = JSON.stringify({ ...given, payment: { ...given.payment, amount: '__a__' } })
      .normalize('NFKC')
      .replace('"__a__"', '149.90');
    const found = judgeWire([create(Buffer.from(nfkc), seconds)], { ...op, create: { ...op.create, params: given } }, ctx);
    expect(found.map((f) => f.mistake)).toEqual(['strings_normalised']);
    expect(found[0]!.text).toMatch(/^the body sent is not the one given: name is sent as "Grifin 12 XII カナ2".*NFKC/);
  });
  it('names a URL signed without the base path, and a request sent outside it', () => {
    const base = `${origin}${BASE_PATH}`;
    const under = { ...create(Buffer.from(text), seconds), rawTarget: `${BASE_PATH}/v2/merchants/payins/` };
    // Signed as called: nothing to say. Signed without the base path: named.
    expect(
      judgeWire(
        [{ ...create(Buffer.from(text), seconds, undefined, [], `${base}/v2/merchants/payins/`), rawTarget: under.rawTarget }],
        op,
        ctx,
      ),
    ).toEqual([]);
    const unsigned = judgeWire([under], op, ctx);
    expect(unsigned.map((f) => f.mistake)).toEqual(['base_path_lost']);
    const outside: Exchange = { ...create(Buffer.from(text), seconds), action: 'outside_base' };
    const lost = judgeWire([outside], op, ctx);
    expect(lost.map((f) => f.mistake)).toEqual(['base_path_lost']);
    expect(lost[0]!.text).toMatch(/without the path of the base URL given \(http:\/\/127\.0\.0\.1:9\/gateway\/pay\)/);
  });
  it('names a GET sent with a body, and one through the untrusted TLS listener', () => {
    const get = (body: string, more: [string, string][] = []): Exchange => ({
      ...create(Buffer.alloc(0), seconds),
      method: 'GET',
      rawTarget: '/v2/merchants/payins/pi_1',
      target: '/v2/merchants/payins/pi_1',
      rawHeaders: [['Host', '127.0.0.1:9'], ...more],
      headers: Object.fromEntries(more.map(([k, v]) => [k.toLowerCase(), v])),
      body: Buffer.from(body),
      route: routeOf('GET', '/v2/merchants/payins/pi_1'),
    });
    const lookup = { resource: 'payins' as const, id: 'pi_1' };
    const mistakes = (ex: Exchange) => judgeWire([ex], lookup, ctx).map((f) => f.mistake);
    expect(mistakes(get('{}', [['Content-Length', '2']]))).toContain('body_on_get');
    expect(mistakes(get('', [['Transfer-Encoding', 'chunked']]))).toContain('body_on_get');
    expect(mistakes(get('', [['Content-Length', '0']]))).not.toContain('body_on_get');
    expect(mistakes({ ...get(''), origin: 'https://127.0.0.1:9' })[0]).toBe('tls_unverified');
  });
  it("names a request Node's parser refused by what is wrong with its raw head", () => {
    const head = readHead(
      Buffer.from('POST /gateway/pay/v2/merchants/payins/ HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\n{}'),
    );
    expect(head).toMatchObject({ method: 'POST', target: '/gateway/pay/v2/merchants/payins/' });
    expect(head.headers).toEqual([
      ['Host', 'h'],
      ['Content-Length', '2'],
      ['content-length', '2'],
    ]);
    expect(head.body.toString()).toBe('{}');
    const refused: Exchange = {
      ...create(Buffer.from('{}'), seconds),
      rawHeaders: head.headers,
      refused: 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length',
    };
    const found = judgeWire([refused], op, ctx);
    expect(found.map((f) => f.mistake)).toEqual(['header_repeated']);
    expect(found[0]!.text).toMatch(/2 Content-Length header lines .*refused the request for it/);
  });
});

describe('judgeAnswer: what the SDK answered, named', () => {
  const zone = 'America/St_Johns';
  const sent = {
    id: 'pi_1',
    reference_id: 'r',
    status: 'new',
    payment: { amount: 149.9, currency: 'EUR' },
    created_at: '2026-11-26T14:47:45.123',
  };
  const log: Exchange[] = [
    {
      seq: 1,
      at: 0,
      origin: 'http://127.0.0.1:9',
      method: 'GET',
      rawTarget: '/v2/merchants/payins/pi_1',
      target: '/v2/merchants/payins/pi_1',
      rawHeaders: [],
      headers: {},
      body: Buffer.alloc(0),
      route: routeOf('GET', '/v2/merchants/payins/pi_1'),
      action: null,
      upstream: null,
      delivered: { kind: 'answer', status: 200 },
      deliveredAt: 0,
      deliveredBody: Buffer.from(JSON.stringify(sent)),
    },
  ];
  const record = (created_at: string): ClientAnswer => ({
    outcome: 'ok',
    record: { ...sent, payment: { amount: '149.90', currency: 'EUR' }, created_at },
  });
  const ctx = { zone };

  it('reads datetimes as UTC, and names one read as the local time of the child', () => {
    expect(judgeAnswer(record('2026-11-26T14:47:45.123Z'), { outcome: 'ok' }, log, ctx)).toBeNull();
    // St John's is UTC-3:30 in November: 14:47 read as local time is 18:17 UTC.
    expect(judgeAnswer(record('2026-11-26T18:17:45.123Z'), { outcome: 'ok' }, log, ctx)?.mistake).toBe('datetime_read_as_local');
    expect(judgeAnswer(record('2026-11-26T15:47:45.123Z'), { outcome: 'ok' }, log, ctx)?.mistake).toBe('record_misread');
  });
  it("says the service sent a record only when it did: a refused request's 400 is not one", () => {
    const error: ClientAnswer = { outcome: 'error', kind: 'api', status: 400, code: null, paths: [], message: null };
    expect(judgeAnswer(error, { outcome: 'ok' }, log, ctx)?.text).toMatch(/the service answered with the record/);
    const refused = [{ ...log[0]!, delivered: { kind: 'answer', status: 400 } as const, deliveredBody: Buffer.from('{"error":{}}') }];
    const said = judgeAnswer(error, { outcome: 'ok' }, refused, ctx);
    expect(said?.mistake).toBe('wrong_outcome');
    expect(said?.text).toMatch(/the service sent none \(its last answer: HTTP 400\)/);
    expect(said?.text).not.toMatch(/answered with the record/);
  });
  it('reads outcome unknown with the reference, or null when the create carried none; nothing else', () => {
    expect(readAnswer({ outcome: 'unknown', reference_id: 'r' })).toEqual({ outcome: 'unknown', referenceId: 'r' });
    expect(readAnswer({ outcome: 'unknown', reference_id: null })).toEqual({ outcome: 'unknown', referenceId: null });
    expect(readAnswer({ outcome: 'unknown' })).toMatch(/"reference_id" must be a string \(or null/);
    expect(readAnswer({ outcome: 'unknown', reference_id: 7 })).toMatch(/"reference_id" must be a string/);
  });
  it('wants outcome unknown where nothing could be known in time, and takes a timeout where a retry is optional', () => {
    const unknown: ClientAnswer = { outcome: 'unknown', referenceId: 'r' };
    const timeout: ClientAnswer = { outcome: 'error', kind: 'timeout', status: null, code: null, paths: [], message: null };
    expect(judgeAnswer(unknown, { outcome: 'unknown' }, log, ctx)).toBeNull();
    expect(judgeAnswer(timeout, { outcome: 'unknown' }, log, ctx)?.mistake).toBe('wrong_outcome');
    expect(judgeAnswer(record('2026-11-26T14:47:45.123Z'), { outcome: 'unknown' }, log, ctx)?.mistake).toBe('wrong_outcome');
    expect(judgeAnswer(timeout, { outcome: 'ok', orTimeout: true }, log, ctx)).toBeNull();
    expect(judgeAnswer(timeout, { outcome: 'ok' }, log, ctx)?.mistake).toBe('wrong_outcome');
  });
  it('names a timeout reported as a network error, and none at all', () => {
    const expectTimeout = { outcome: 'error', kind: 'timeout' } as const;
    const held = { zone, heldMs: 3000 };
    const error = (kind: 'timeout' | 'network'): ClientAnswer => ({
      outcome: 'error',
      kind,
      status: null,
      code: null,
      paths: [],
      message: null,
    });
    expect(judgeAnswer(error('timeout'), expectTimeout, log, held)).toBeNull();
    expect(judgeAnswer(error('network'), expectTimeout, log, held)?.mistake).toBe('timeout_as_network');
    expect(judgeAnswer(record('2026-11-26T14:47:45.123Z'), expectTimeout, log, held)).toMatchObject({
      mistake: 'timeout_not_enforced',
      text: expect.stringMatching(/held 3000 ms/),
    });
  });
});

describe('timeout_ms told per case', () => {
  it('is short only where the case loses answers on purpose or waits the limit out; long elsewhere', () => {
    expect(SHORT_TIMEOUT_MS).toBe(1500);
    expect(SDK_TIMEOUT_MS).toBe(10_000);
    const short = CLIENT_CASES.filter((c) => timeoutOf(c) === SHORT_TIMEOUT_MS).map((c) => `${c.category}/${c.name}`);
    expect(short).toEqual([
      'client_errors/answer-past-timeout',
      ...CLIENT_CASES.filter((c) => c.category === 'client_exactly_once').map((c) => `${c.category}/${c.name}`),
    ]);
    // Else long, but where an answer trickles in: its own limit, which the trickle outlasts.
    const others = CLIENT_CASES.filter((c) => timeoutOf(c) !== SHORT_TIMEOUT_MS && timeoutOf(c) !== SDK_TIMEOUT_MS);
    expect(others.map((c) => c.name)).toEqual(['answer-trickled-past-timeout']);
    // The two cases that hold a request or its answer hold it past the limit their SDK is told.
    const holds = CLIENT_CASES.flatMap((c) =>
      (c.rules ?? []).flatMap(({ action }) =>
        action.kind === 'hold_answer' || action.kind === 'late_commit' ? [{ limit: timeoutOf(c), ms: action.ms }] : [],
      ),
    );
    expect(holds).toHaveLength(2);
    for (const hold of holds) expect(hold.ms).toBeGreaterThan(hold.limit);
    // A trickled answer: no pause between its pieces near the limit, the whole of it far past it.
    for (const c of CLIENT_CASES) {
      for (const { action } of c.rules ?? []) {
        if (action.kind !== 'trickle') continue;
        expect(action.pauseMs * 4).toBeLessThanOrEqual(timeoutOf(c));
        expect(action.pauseMs * action.pieces).toBeGreaterThanOrEqual(timeoutOf(c) * 3);
      }
    }
  });
  it('total_timeout_ms: the usual, or shorter where the case checks the call ends by it; the command limit follows it', () => {
    const shorter = CLIENT_CASES.filter((c) => totalTimeoutOf(c) !== SDK_TOTAL_TIMEOUT_MS);
    expect(shorter.map((c) => c.name)).toEqual(['server-error', 'lookups-fail-past-total']);
    for (const c of CLIENT_CASES) expect(commandLimitOf(c)).toBe(totalTimeoutOf(c) + 5000);
  });
});
