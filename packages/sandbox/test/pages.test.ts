// The pages without a browser: how amounts and times are written, the order of webhook attempts,
// the filters of the dashboard and the requests page (hostile values included), and the routes
// (the dashboard, the requests page, the script file and the pages' Content-Security-Policy).
import { describe, expect, it } from 'vitest';
import { decimalText, formatAmount, minorUnits, serviceMs } from '../src/format.js';
import { formatTime } from '../src/admin-client/index.js';
import { PAGE_SCRIPT_PATH } from '../src/page-script.js';
import { PAGE_CSP } from '../src/http.js';
import { attemptsInTimeOrder, dashboardPage } from '../src/dashboard-page.js';
import { escapeHtml, SCHEDULE_CLOCK, timeHtml } from '../src/html-kit.js';
import { readFilters } from '../src/page-filters.js';
import { requestsPage, statusMatches } from '../src/requests-page.js';
import type { DeliveryAttempt } from '../src/deliveries.js';
import {
  adminCall,
  call,
  HOSTILE,
  logged,
  M1,
  M2,
  offlineState,
  payinBody,
  payoutBody,
  post,
  sandboxForFile,
  type Started,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

describe('amounts', () => {
  it.each([
    // [amount as sent, currency, shown]
    [12.5, 'EUR', '12.50 EUR'],
    [10, 'EUR', '10.00 EUR'],
    ['10.50', 'EUR', '10.50 EUR'],
    [0.3, 'EUR', '0.30 EUR'],
    [1000, 'JPY', '1000 JPY'],
    ['1000', 'KRW', '1000 KRW'],
    [1.5, 'KWD', '1.500 KWD'],
    [5, 'BHD', '5.000 BHD'],
    [1, 'CLF', '1.0000 CLF'],
    ['2.25', 'UYW', '2.2500 UYW'],
    [100, 'XYZ', '100.00 XYZ'], // unknown code: two decimals
    [100, 'USD', '100.00 USD'],
    // More decimals than the currency has: shown as sent, never rounded.
    [10.005, 'EUR', '10.005 EUR'],
    ['7.5', 'JPY', '7.5 JPY'],
    ['1.23456', 'CLF', '1.23456 CLF'],
    ['0.10000', 'EUR', '0.10000 EUR'],
    // Numbers JavaScript writes with an exponent: written out in digits, exactly.
    [1e-7, 'EUR', '0.0000001 EUR'],
    [1.5e-7, 'KWD', '0.00000015 KWD'],
    [1e21, 'EUR', '1000000000000000000000.00 EUR'],
    [1.2345e25, 'JPY', '12345000000000000000000000 JPY'],
    [123456789.12, 'EUR', '123456789.12 EUR'],
    // Not decimal digits (never sent by a valid request): shown as it is.
    ['abc', 'EUR', 'abc EUR'],
  ])('%j %s is %s', (amount, currency, shown) => {
    expect(formatAmount(amount, currency)).toBe(shown);
  });

  it('works on the decimal text, never through floating point', () => {
    // 0.1 + 0.2 as a JSON number is 0.30000000000000004: shown as sent, not rounded to 0.30.
    expect(formatAmount(0.1 + 0.2, 'EUR')).toBe('0.30000000000000004 EUR');
    expect(decimalText(5e-324)).toBe(`0.${'0'.repeat(323)}5`);
    expect(decimalText(-1e-7)).toBe('-0.0000001');
    expect(decimalText('10.50')).toBe('10.50');
  });

  it('minor units follow ISO 4217 for the listed codes, two otherwise', () => {
    const table: Record<number, string[]> = {
      0: ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'],
      3: ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'],
      4: ['CLF', 'UYW'],
      2: ['EUR', 'USD', 'GBP', 'CAD', 'ZZZ', '__proto__', 'constructor'],
    };
    for (const [units, codes] of Object.entries(table)) for (const code of codes) expect(minorUnits(code), code).toBe(Number(units));
  });
});

describe('times', () => {
  const at = Date.UTC(2026, 10, 23, 20, 24, 49, 123);

  it.each([
    [at, '2026-11-23 20:24:49 UTC'],
    [Date.UTC(2026, 0, 1), '2026-01-01 00:00:00 UTC'],
    [Number.NaN, ''],
    [8.64e15 + 1, ''],
  ])('%d is %j', (ms, shown) => {
    expect(formatTime(ms)).toBe(shown);
  });

  it('a <time> with the full ISO value in its datetime and title, and the clock it is on', () => {
    expect(timeHtml(at, SCHEDULE_CLOCK)).toBe(
      '<time datetime="2026-11-23T20:24:49.123Z" title="2026-11-23T20:24:49.123Z, schedule clock" data-clock="schedule">2026-11-23 20:24:49 UTC</time>',
    );
    expect(timeHtml(Number.NaN, SCHEDULE_CLOCK)).toBe('');
  });

  it('reads the service datetime format only', () => {
    expect(serviceMs('2026-11-23T20:24:49.123000')).toBe(at);
    expect(serviceMs('2026-11-23T20:24:49Z')).toBeNaN();
  });
});

describe('webhook attempts on the dashboard', () => {
  const attempt = (status: string, n: number, due: string, sent: string | null): DeliveryAttempt => ({
    transaction_id: 'pi_1',
    status,
    url: 'https://hooks.example/pay',
    attempt: n,
    due_at: `2026-11-23T${due}.000000`,
    sent_at: sent === null ? null : `2026-11-23T${sent}.000000`,
    response_status: null,
    error: null,
  });

  it('are in the order they were sent (or are due), ties by attempt number, not the order planned', () => {
    // As planned: `new` failed twice and its third attempt waits 15 min; meanwhile the payin was
    // executed, whose first two attempts were sent before `new`'s third.
    const planned = [
      attempt('new', 1, '10:00:00', '10:00:00'),
      attempt('new', 2, '10:00:00', '10:00:01'),
      attempt('new', 3, '10:15:01', null),
      attempt('executed', 1, '10:05:00', '10:05:00'),
      attempt('executed', 2, '10:05:00', '10:05:00'),
      attempt('executed', 3, '10:20:00', null),
    ];
    expect(attemptsInTimeOrder(planned).map((a) => `${a.status} ${a.attempt}`)).toEqual([
      'new 1',
      'new 2',
      'executed 1',
      'executed 2',
      'new 3',
      'executed 3',
    ]);
    expect(planned[2]!.attempt).toBe(3); // the input is not reordered
  });
});

describe('filters from the query string', () => {
  it('are decoded, trimmed and bounded; missing ones are empty', () => {
    expect(readFilters('merchant=m_1&status=+new+&x=1', ['merchant', 'status', 'reference'])).toEqual({
      merchant: 'm_1',
      status: 'new',
      reference: '',
    });
    expect(readFilters(null, ['a'])).toEqual({ a: '' });
    const long = readFilters(`reference=${'%F0%9F%98%80'.repeat(500)}`, ['reference']).reference;
    expect([...long]).toHaveLength(64);
    expect(long).toBe('😀'.repeat(64)); // cut between characters, never inside one
    expect(readFilters(`${'a'.repeat(5000)}&reference=late`, ['reference']).reference).toBe(''); // past the bound: ignored
    expect(readFilters('reference=%ZZ%', ['reference']).reference).toBe('%ZZ%');
  });

  it.each([
    ['', 200, true],
    ['', null, true],
    ['2xx', 200, true],
    ['2XX', 204, true],
    ['4xx', 401, true],
    ['4xx', 200, false],
    ['4xx', null, false],
    ['401', 401, true],
    ['401', 400, false],
    ['dropped', null, true],
    ['dropped', 500, false],
    ['6xx', 600, false],
    ['40', 40, false],
    ['<b>', 401, false],
  ])('status filter %j and status %j: %j', (wanted, status, passes) => {
    expect(statusMatches(status, wanted)).toBe(passes);
  });
});

describe('requests page', () => {
  const rows = (html: string) => [...html.matchAll(/<tr class="request" id="request-(\d+)"/g)].map((m) => Number(m[1]));

  it('lists the log newest first: time, merchant, method, path, answer, hint, duration, transaction, body', () => {
    const state = offlineState();
    state.requests.add(logged());
    state.requests.add(
      logged({
        at: '2026-11-23T20:25:01.000Z',
        status: 401,
        code: 'bad_signature',
        message: 'header x-signature does not match',
        hint: 'the signature was computed over http://localhost:4010/v2/merchants/payins (no trailing slash)',
        duration_ms: 1,
        transaction_id: null,
      }),
    );
    const html = requestsPage(state);
    expect(rows(html)).toEqual([2, 1]);
    // When it arrived on both clocks, each named: the schedule clock (as the dashboard shows times) and the wall clock.
    expect(html).toContain(
      '<td class="pair nowrap" data-label="received"><time datetime="2026-11-23T20:24:49.123Z" title="2026-11-23T20:24:49.123Z, schedule clock" data-clock="schedule">2026-11-23 20:24:49 UTC</time> <small class="clock-name">schedule clock</small><br>' +
        '<time datetime="2026-11-23T20:25:01.000Z" title="2026-11-23T20:25:01.000Z, wall clock" data-clock="wall">2026-11-23 20:25:01 UTC</time> <small class="clock-name">wall clock</small></td>',
    );
    expect(html).toContain('<span class="bad">401</span> <code>bad_signature</code>');
    expect(html).toContain(
      '<p class="hint"><strong>Hint:</strong> <bdi>the signature was computed over http://localhost:4010/v2/merchants/payins (no trailing slash)</bdi></p>',
    );
    expect(html).toContain('<td class="num pair" data-label="duration">1 ms</td>');
    expect(html).toContain('<a href="/_sandbox/#tx-pi_accepted" data-link="transaction"><code class="ident">pi_accepted</code></a>');
    expect(html).toMatch(
      /<details id="body-1"><summary>body, 26 characters<\/summary><pre class="text"><bdi>\{&quot;reference_id&quot;:&quot;order-1&quot;\}<\/bdi><\/pre><\/details>/,
    );
    expect(html).toContain('2 of 2 requests');
    expect(html).toContain(`src="/_sandbox${PAGE_SCRIPT_PATH}"`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handler
  });

  it('filters by merchant, status and path', () => {
    const state = offlineState();
    state.requests.add(logged()); // 1
    state.requests.add(logged({ merchant_id: 'm_2', status: 401, code: 'bad_signature' })); // 2
    state.requests.add(logged({ method: 'GET', path: '/v2/merchants/payouts/po_1', status: 404, code: 'not_found' })); // 3
    state.requests.add(logged({ merchant_id: null, status: null, fault: 'drop_before_commit' })); // 4
    const shown = (query: string) => rows(requestsPage(state, query));
    expect(shown('')).toEqual([4, 3, 2, 1]);
    expect(shown('merchant=m_2')).toEqual([2]);
    expect(shown('status=4xx')).toEqual([3, 2]);
    expect(shown('status=401')).toEqual([2]);
    expect(shown('status=2xx')).toEqual([1]);
    expect(shown('status=dropped')).toEqual([4]);
    expect(shown('path=PAYOUTS')).toEqual([3]);
    expect(shown('merchant=m_1&status=4xx')).toEqual([3]);
    expect(requestsPage(state, 'status=4xx')).toContain('2 of 4 requests');
    expect(requestsPage(state, 'status=nonsense')).toContain('No request matches these filters.');
  });

  it('escapes and isolates everything a client sent, and hostile filters stay harmless', () => {
    const state = offlineState();
    state.requests.add(
      logged({
        merchant_id: HOSTILE,
        method: 'POST',
        path: `/v2/${HOSTILE}`,
        hint: HOSTILE,
        message: HOSTILE,
        body: `</pre></details>${HOSTILE}\u202Eevil`,
        transaction_id: '"><script>',
      }),
    );
    const html = requestsPage(state, `merchant=${encodeURIComponent(`"><script>alert(1)</script>`)}&path=${'x'.repeat(10_000)}`);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</pre></details><');
    expect(html).toContain(`value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"`);
    expect(html).toContain(`value="${'x'.repeat(64)}"`);
    expect(html).not.toContain('x'.repeat(65));
    expect(requestsPage(state)).toContain(`<bdi>&lt;/pre&gt;&lt;/details&gt;${escapeHtml(HOSTILE)}\u202Eevil</bdi>`);
    expect(requestsPage(state)).toContain('href="/_sandbox/#tx-%22%3E%3Cscript%3E"');
  });

  it("lists a 400's field errors under it, each path with its message, escaped", () => {
    const state = offlineState();
    state.requests.add(
      logged({
        status: 400,
        code: 'invalid_request',
        message: 'the body does not match the create-payin (v2) schema: 2 errors',
        errors: [
          { path: 'payment.amount', message: 'EUR has 2 decimals; got 3' },
          { path: HOSTILE, message: HOSTILE },
          { path: '', message: 'and 3 more field errors (the answer lists them)' },
        ],
        transaction_id: null,
      }),
    );
    const html = requestsPage(state);
    expect(html).toContain(
      '<ul class="field-errors"><li data-path="payment.amount"><code><bdi>payment.amount</bdi></code> <bdi>EUR has 2 decimals; got 3</bdi></li>' +
        `<li data-path="${escapeHtml(HOSTILE)}"><code><bdi>${escapeHtml(HOSTILE)}</bdi></code> <bdi>${escapeHtml(HOSTILE)}</bdi></li>` +
        '<li data-path=""><bdi>and 3 more field errors (the answer lists them)</bdi></li></ul>',
    );
    expect(html).not.toContain('<img');
  });

  it('says when the log is empty', () => {
    expect(requestsPage(offlineState())).toContain('No requests yet.');
  });
});

describe('routes', () => {
  it('the dashboard and the requests page are HTML under the pages policy; the script is a file', async () => {
    for (const path of ['/', '/log', '/log?status=4xx']) {
      const page = await adminCall(sb, 'GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(page.text).toContain(`<script type="module" src="/_sandbox${PAGE_SCRIPT_PATH}"></script>`);
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    }
    const script = await adminCall(sb, 'GET', PAGE_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain("new EventSource('/_sandbox/events')");
    expect(script.text).toContain('location.pathname + location.search');
    expect((await adminCall(sb, 'POST', '/log')).status).toBe(405);
    expect((await adminCall(sb, 'POST', PAGE_SCRIPT_PATH)).status).toBe(405);
  });

  const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }; // as Chromium sends it

  it('an unknown address under /_sandbox/: a page for a browser, the JSON error for anything else', async () => {
    const page = await call('GET', `${sb.url}/_sandbox/nope/<b>`, { headers: HTML });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(page.text).toContain('The sandbox has no page <code class="text"><bdi>/_sandbox/nope/%3Cb%3E</bdi></code>');
    expect(page.text).toContain('<a href="/_sandbox/">the transactions</a>');
    expect(page.text).toContain('<a href="/_sandbox/log">the requests</a>');
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Record<string, string>[]) {
      const answer = await call('GET', `${sb.url}/_sandbox/nope`, { headers });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.body.error).toEqual({ code: 'not_found', message: 'no admin endpoint GET /_sandbox/nope' });
    }
    // A POST is an API call, whatever it accepts.
    expect((await call('POST', `${sb.url}/_sandbox/nope`, { headers: HTML })).body.error.code).toBe('not_found');
  });

  it('/favicon.ico: 204, not a service request, in neither the request log nor the terminal', async () => {
    const before = sb.lines.length;
    const icon = await call('GET', `${sb.url}/favicon.ico`, { headers: HTML });
    expect(icon.status).toBe(204);
    expect(icon.text).toBe('');
    expect((await call('HEAD', `${sb.url}/favicon.ico`)).status).toBe(204);
    expect((await adminCall(sb, 'GET', '/requests')).body).toEqual([]);
    expect(sb.lines.slice(before).filter((l) => l.includes('favicon'))).toEqual([]);
  });

  it('a look at the dashboard writes no line to the terminal; what code and customers do still does', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const before = sb.lines.length;
    const looks = ['/', '/log', PAGE_SCRIPT_PATH, `/timeline/${created.body.id}`, '/timeline/pi_gone', '/sign-in', '/nope'];
    for (const path of looks) await call('GET', `${sb.url}/_sandbox${path}`, { headers: HTML });
    await call('GET', `${sb.url}/_sandbox`, { headers: HTML });
    await call('GET', `${sb.url}/`, { headers: HTML });
    const events = await fetch(`${sb.url}/_sandbox/events`);
    await events.body?.cancel();
    // Calls of the admin API, the payment page and a script's mistyped address are logged.
    await adminCall(sb, 'GET', '/health');
    await call('GET', created.body.next_action.url, { headers: HTML });
    await call('GET', `${sb.url}/_sandbox/nope`);
    const shown = sb.lines
      .slice(before)
      .filter((l) => !l.startsWith('webhook'))
      .map((l) => l.split(' ').slice(0, 3).join(' '));
    expect(shown).toEqual(['GET /_sandbox/health 200', `GET /_sandbox/pay/${created.body.id} 200`, 'GET /_sandbox/nope 404']);
  });

  it('the requests page answers only on this machine, like the dashboard', async () => {
    const { createSandbox } = await import('../src/index.js');
    const core = createSandbox({ merchants: [M1] });
    try {
      for (const path of ['/_sandbox/log', `/_sandbox${PAGE_SCRIPT_PATH}`]) {
        expect((await core.fetch(new Request(`http://sandbox.test${path}`), { remoteAddress: '192.0.2.10' })).status).toBe(403);
      }
    } finally {
      core.close();
    }
  });
});

describe('dashboard', () => {
  const rowIds = (html: string) => [...html.matchAll(/<tr class="transaction" id="tx-([^"]+)"/g)].map((m) => m[1]);

  it('writes amounts with their decimals, times with their zone, and links each transaction', async () => {
    const eur = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ payment: { amount: 12.5, currency: 'EUR' } }));
    const jpy = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card', payment: { amount: 1000, currency: 'JPY' } }));
    const kwd = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ payment: { amount: '1.5', currency: 'KWD' } }));
    await adminCall(sb, 'POST', `/payins/${eur.body.id}/status`, { status: 'executed' });
    const html = (await adminCall(sb, 'GET', '/')).text;
    expect(rowIds(html)).toEqual([kwd.body.id, jpy.body.id, eur.body.id]);
    expect(html).toContain('<span class="amount">12.50 EUR</span>');
    expect(html).toContain('<span class="amount">0.31 EUR</span>'); // the fee
    expect(html).toContain('<span class="amount">1000 JPY</span>');
    expect(html).toContain('<span class="amount">1.500 KWD</span>');
    const created = Date.parse(`${eur.body.created_at}Z`);
    expect(html).toContain(`created ${timeHtml(created, SCHEDULE_CLOCK)}`);
    expect(html).not.toMatch(/>\d{4}-\d\d-\d\dT/); // no raw datetime shown as text
    // Links: the hosted page when next_action is a redirect, and the webhook attempts.
    expect(html).toContain(`<a href="/_sandbox/pay/${eur.body.id}" data-link="hosted">hosted page</a>`);
    expect(html).not.toContain(`/_sandbox/pay/${jpy.body.id}`); // a card payin has a card push instead
    expect(html).toContain(`<a href="#deliveries-${eur.body.id}" data-link="deliveries">webhooks (`);
    expect(html).toContain(`<tr class="deliveries" id="deliveries-${eur.body.id}"`);
    expect(html).toContain('<a href="/_sandbox/log">Requests</a>');
    expect(html).toContain('<a href="/_sandbox/" aria-current="page">Transactions</a>');
  });

  it('filters by merchant, status and reference (or id), and counts what matches', async () => {
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1001' }));
    const b = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-1002' }), M2);
    const c = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'refund-7' }));
    await adminCall(sb, 'POST', `/payins/${c.body.id}/status`, { status: 'failed' });
    const shown = async (query: string) => rowIds((await adminCall(sb, 'GET', `/?${query}`)).text);
    expect(await shown('')).toEqual([c.body.id, b.body.id, a.body.id]);
    expect(await shown('merchant=m_2')).toEqual([b.body.id]);
    expect(await shown('status=failed')).toEqual([c.body.id]);
    expect(await shown('reference=ORDER-')).toEqual([b.body.id, a.body.id]);
    expect(await shown(`reference=${a.body.id}`)).toEqual([a.body.id]);
    expect(await shown('merchant=m_1&reference=order')).toEqual([a.body.id]);
    const page = (await adminCall(sb, 'GET', '/?merchant=m_1&reference=order')).text;
    expect(page).toContain('<p class="count" id="count">1 of 3 transactions</p>');
    expect(page).toContain('<option value="m_1" selected>m_1</option>');
    expect(page).toContain('name="reference" value="order"');
    expect((await adminCall(sb, 'GET', '/?status=nope')).text).toContain('No transaction matches these filters.');
  });

  it('hostile and oversized query values are bounded and escaped', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: HOSTILE }));
    const evil = encodeURIComponent(`"><script>alert(1)</script>`);
    const answer = await call('GET', `${sb.url}/_sandbox/?merchant=${evil}&status=${evil}&reference=${'r'.repeat(3000)}`);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('<script>alert');
    expect(answer.text).not.toContain('<img');
    expect(answer.text).toContain('<option value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" selected>');
    expect(answer.text).toContain(`value="${'r'.repeat(64)}"`);
    expect(answer.text).toContain('0 of 1 transactions');
    // The reference itself, unfiltered: escaped and isolated.
    expect((await adminCall(sb, 'GET', '/')).text).toContain(
      `<td class="text reference" data-label="reference"><span class="ident"><bdi>${escapeHtml(HOSTILE)}</bdi></span></td>`,
    );
  });

  it('renders without a request (as a unit) and shows only the newest that match', () => {
    const state = offlineState();
    expect(dashboardPage(state, 'http://127.0.0.1:1')).toContain('No transactions yet.');
    expect(dashboardPage(state, 'http://127.0.0.1:1', 'status=new')).toContain('0 of 0 transactions');
  });
});
