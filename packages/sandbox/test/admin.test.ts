// The admin API, the schedule clock's transitions (expiry, payout execution) and the hosted
// payment page, over real HTTP.
import { describe, expect, it } from 'vitest';
import { createSandbox, PAYOUT_EXECUTION_SECONDS } from '../src/index.js';
import { adminCall, call, get, M1, payinBody, payoutBody, post, receiver, sandboxForFile, type Started } from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const time = (datetime: string) => Date.parse(`${datetime}Z`);

describe('health and clock', () => {
  it('health is {ok: true}', async () => {
    expect((await adminCall(sb, 'GET', '/health')).body).toEqual({ ok: true });
  });

  it('clock/advance moves now forward by the seconds given and answers the new now', async () => {
    const before = await adminCall(sb, 'POST', '/clock/advance', { seconds: 0 });
    const after = await adminCall(sb, 'POST', '/clock/advance', { seconds: 90.5 });
    // Plus the wall time between the two calls, which keeps running.
    const moved = time(after.body.now) - time(before.body.now);
    expect(moved).toBeGreaterThanOrEqual(90_500);
    expect(moved).toBeLessThan(90_500 + 60_000);
    const read = await adminCall(sb, 'GET', '/clock');
    expect(time(read.body.now)).toBeGreaterThanOrEqual(time(after.body.now));
  });

  it('clock/advance refuses a negative step, saying time does not go backwards, and moves nothing', async () => {
    const before = time((await adminCall(sb, 'GET', '/clock')).body.now);
    const back = await adminCall(sb, 'POST', '/clock/advance', { seconds: -300 });
    expect(back.status).toBe(400);
    expect(back.body.error.errors).toEqual([
      {
        path: 'seconds',
        message:
          "must be 0 or more: time does not go backwards in the sandbox (a reset puts the schedule clock back on the sandbox's clock)",
      },
    ]);
    expect(time((await adminCall(sb, 'GET', '/clock')).body.now) - before).toBeLessThan(60_000);
  });

  it('reset puts the clock back on wall time and forgets everything', async () => {
    await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'gone' }));
    await adminCall(sb, 'POST', '/faults', { method: 'GET', path_prefix: '/', kind: 'delay', count: 3, ms: 1 });
    await adminCall(sb, 'POST', '/clock/advance', { seconds: 86_400 * 3 });
    expect((await adminCall(sb, 'POST', '/reset')).body).toEqual({ ok: true });
    const now = time((await adminCall(sb, 'GET', '/clock')).body.now);
    expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
    expect((await adminCall(sb, 'GET', '/transactions')).body).toEqual([]);
    expect((await adminCall(sb, 'GET', '/deliveries')).body).toEqual([]);
    expect((await adminCall(sb, 'GET', '/faults')).body).toEqual([]);
    expect((await get(`${sb.url}/v2/merchants/payins/?reference_id=gone`)).status).toBe(404);
  });
});

describe('transitions on the schedule clock', () => {
  it('a payin still new at expires_at becomes expired, with one webhook', async () => {
    const hooks = await receiver();
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await hooks.next(); // new
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 29 * 60 });
      expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 61 });
      const looked = await get(`${sb.url}/v2/merchants/payins/${created.body.id}`);
      expect(looked.body).toMatchObject({ status: 'expired', fee: null });
      expect(looked.body.updated_at).toBe(created.body.expires_at);
      expect(JSON.parse((await hooks.next()).body).status).toBe('expired');
    } finally {
      await hooks.close();
    }
  });

  it('a decided payin does not expire', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'executed' });
    await adminCall(sb, 'POST', '/clock/advance', { seconds: 3600 });
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('executed');
  });

  it(`a payout still new ${PAYOUT_EXECUTION_SECONDS} s after creation is executed, with its fee`, async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody());
    await adminCall(sb, 'POST', '/clock/advance', { seconds: PAYOUT_EXECUTION_SECONDS - 1 });
    expect((await get(`${sb.url}/v2/merchants/payouts/${created.body.id}`)).body.status).toBe('new');
    await adminCall(sb, 'POST', '/clock/advance', { seconds: 1 });
    const looked = await get(`${sb.url}/v2/merchants/payouts/${created.body.id}`);
    // 2.5 % of 99.99 is 2.49975: 2.50 rounded half up.
    expect(looked.body).toMatchObject({ status: 'executed', fee: { amount: 2.5, currency: 'EUR' }, error_code: null });
  });

  it.each([
    // [amount, currency, fee]: 2.5 % rounded half up to the currency's minor unit, worked by hand.
    ['1001', 'JPY', 25], // 25.025 yen: whole yen
    ['1.5', 'KWD', 0.038], // 0.0375 dinar: thousandths
    ['99.99', 'EUR', 2.5], // 2.49975 euros: cents
    ['1.2345', 'CLF', 0.0309], // 0.0308625: ten-thousandths
  ])("the fee of %s %s is %s, in the currency's minor unit", async (amount, currency, fee) => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ payment: { amount, currency } }));
    const executed = await adminCall(sb, 'POST', `/payouts/${created.body.id}/status`, { status: 'executed' });
    expect(executed.body.fee).toEqual({ amount: fee, currency });
  });
});

describe('status changes', () => {
  it('executes, fails (with a code and message) and expires; each change is one webhook', async () => {
    const hooks = await receiver();
    try {
      const ids: string[] = [];
      for (const status of ['executed', 'failed', 'expired']) {
        const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
        ids.push(created.body.id);
        const body = status === 'failed' ? { status, error_code: 'fraud_suspected', error_message: 'Blocked by risk rules.' } : { status };
        const a = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, body);
        expect(a.status).toBe(200);
        expect(a.body.status).toBe(status);
        if (status === 'failed') expect(a.body).toMatchObject({ error_code: 'fraud_suspected', error_message: 'Blocked by risk rules.' });
        if (status === 'executed') expect(a.body.fee).toEqual({ amount: 0.26, currency: 'EUR' });
      }
      const seen = [];
      for (let i = 0; i < 6; i++) seen.push(JSON.parse((await hooks.next()).body));
      for (const [i, status] of ['executed', 'failed', 'expired'].entries()) {
        expect(
          seen
            .filter((w) => w.id === ids[i])
            .map((w) => w.status)
            .sort(),
        ).toEqual([status, 'new'].sort());
      }
    } finally {
      await hooks.close();
    }
  });

  it('fails with the default code when none is given', async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody());
    const a = await adminCall(sb, 'POST', `/payouts/${created.body.id}/status`, { status: 'failed' });
    expect(a.body).toMatchObject({ status: 'failed', error_code: 'declined', error_message: 'The transaction was declined.' });
  });

  it('accepts an undocumented status (not final) asked for on purpose, so clients can test an open status set', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const processing = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'processing', unknown_status: true });
    expect(processing.body.status).toBe('processing');
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('processing');
    expect((await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'executed' })).status).toBe(200);
  });

  it.each([
    [{ status: 'new' }, 400, 'invalid_request'],
    [{ status: 'EXECUTED' }, 400, 'invalid_request'],
    [{}, 400, 'invalid_request'],
    [{ status: 'executed', error_code: 'x' }, 400, 'invalid_request'],
    [{ status: 'failed', error_code: '' }, 400, 'invalid_request'],
    [{ status: 'executed', note: 'x' }, 400, 'invalid_request'],
    [{ status: 'processing' }, 400, 'invalid_request'],
    [{ status: 'processing', unknown_status: 'yes' }, 400, 'invalid_request'],
  ])('refuses %j', async (body, status, code) => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const a = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, body);
    expect(a.status).toBe(status);
    expect(a.body.error.code).toBe(code);
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
  });

  it('refuses to leave a final status, or to set the status it has (409 invalid_transition)', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const processing = { status: 'processing', unknown_status: true };
    await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, processing);
    expect((await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, processing)).status).toBe(409);
    await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'failed' });
    const a = await adminCall(sb, 'POST', `/payins/${created.body.id}/status`, { status: 'executed' });
    expect(a.status).toBe(409);
    expect(a.body.error.code).toBe('invalid_transition');
  });

  it('404 for an unknown id, or a payin addressed as a payout', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    expect((await adminCall(sb, 'POST', `/payouts/${created.body.id}/status`, { status: 'executed' })).status).toBe(404);
    expect((await adminCall(sb, 'POST', '/payins/pi_nope/status', { status: 'executed' })).status).toBe(404);
    expect((await adminCall(sb, 'GET', `/payins/${created.body.id}/status`)).status).toBe(405);
  });
});

describe('admin listing', () => {
  it('transactions and deliveries, filtered by transaction', async () => {
    const a = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'list-a' }));
    await post(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'list-b' }));
    const listed = await adminCall(sb, 'GET', '/transactions');
    expect(
      listed.body.map((t: { kind: string; merchant_id: string; reference_id: string }) => [t.kind, t.merchant_id, t.reference_id]),
    ).toEqual([
      ['payin', 'm_1', 'list-a'],
      ['payout', 'm_1', 'list-b'],
    ]);
    const all = await adminCall(sb, 'GET', '/deliveries');
    const one = await adminCall(sb, 'GET', `/deliveries?transaction_id=${a.body.id}`);
    expect(all.body.length).toBeGreaterThanOrEqual(2);
    expect(one.body.length).toBeGreaterThanOrEqual(1);
    for (const attempt of one.body) {
      expect(Object.keys(attempt).sort()).toEqual([
        'attempt',
        'due_at',
        'error',
        'response_status',
        'sent_at',
        'status',
        'transaction_id',
        'url',
      ]);
      expect(attempt.transaction_id).toBe(a.body.id);
    }
  });

  it('unknown admin paths are 404, wrong methods 405', async () => {
    expect((await adminCall(sb, 'GET', '/nothing')).status).toBe(404);
    expect((await adminCall(sb, 'POST', '/health')).status).toBe(405);
    expect((await adminCall(sb, 'GET', '/reset')).status).toBe(405);
    const redirect = await call('GET', `${sb.url}/_sandbox`);
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe(`${sb.url}/_sandbox/`);
  });
});

describe('loopback only', () => {
  it('the admin API and dashboard answer 403 to another machine; the hosted page does not', async () => {
    const core = createSandbox({ merchants: [M1] });
    try {
      const remote = { remoteAddress: '192.0.2.10' };
      const admin = await core.fetch(new Request('http://sandbox.test/_sandbox/health'), remote);
      expect(admin.status).toBe(403);
      expect((await admin.json()).error.code).toBe('forbidden');
      expect((await core.fetch(new Request('http://sandbox.test/_sandbox/'), remote)).status).toBe(403);
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        expect((await core.fetch(new Request('http://sandbox.test/_sandbox/health'), { remoteAddress: address })).status).toBe(200);
      }
      // The hosted payment page is the customer's: 404 here means it was looked up, not refused.
      expect((await core.fetch(new Request('http://sandbox.test/_sandbox/pay/pi_x'), remote)).status).toBe(404);
    } finally {
      core.close();
    }
  });
});

describe('cross-origin pages', () => {
  it('cannot drive the sandbox through a browser: a POST naming another Origin is 403, its own origin is fine', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const evil = { 'content-type': 'text/plain', origin: 'https://evil.example' };
    for (const path of ['/reset', `/payins/${created.body.id}/status`, '/clock/advance']) {
      const a = await call('POST', `${sb.url}/_sandbox${path}`, { headers: evil, body: '{"status":"executed","seconds":1}' });
      expect(a.status).toBe(403);
      expect(a.body.error.code).toBe('cross_origin');
    }
    const page = await call('POST', created.body.next_action.url, {
      headers: { ...evil, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=pay',
    });
    expect(page.status).toBe(403);
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
    const own = await call('POST', `${sb.url}/_sandbox/payins/${created.body.id}/status`, {
      headers: { origin: sb.url },
      body: '{"status":"executed"}',
    });
    expect(own.status).toBe(200);
  });
});

describe('hosted payment page', () => {
  const form = (action: string) => ({ body: `action=${action}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('Pay executes the payin and redirects to redirect_urls.success', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'page-1' }));
    const page = await call('GET', created.body.next_action.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('10.50 EUR');
    expect(page.text).toContain('page-1');
    const paid = await call('POST', created.body.next_action.url, form('pay'));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('https://shop.example/ok');
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('executed');
    // Paying again changes nothing and lands on the same page.
    const again = await call('POST', created.body.next_action.url, form('decline'));
    expect(again.headers.get('location')).toBe('https://shop.example/ok');
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('executed');
  });

  it('Decline fails the payin (declined) and redirects to redirect_urls.fail', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const declined = await call('POST', created.body.next_action.url, form('decline'));
    expect(declined.headers.get('location')).toBe('https://shop.example/fail');
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body).toMatchObject({
      status: 'failed',
      error_code: 'declined',
    });
  });

  it('a payout without redirect URLs shows the result instead', async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody());
    const a = await call('POST', created.body.next_action.url, form('pay'));
    expect(a.status).toBe(200);
    expect(a.text).toContain('executed');
  });

  /** The ISO time of the `<time>` in the element with this id, on a page. */
  const timeIn = (text: string, id: string) => new RegExp(`id="${id}"[\\s\\S]*?<time datetime="([^"]+)"`).exec(text)?.[1];

  it('a new payout says when the sandbox executes it, and it does then', async () => {
    const created = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody());
    const page = await call('GET', created.body.next_action.url);
    const due = time(created.body.created_at) + PAYOUT_EXECUTION_SECONDS * 1000;
    expect(timeIn(page.text, 'unattended')).toBe(new Date(due).toISOString());
    expect(page.text).toMatch(
      /is executed at .* on the sandbox's schedule clock \(by the sandbox, \d+ s after it was created; \d+ s from now\)/,
    );
    // What the page says is what happens: just before that time still new, at it executed.
    const now = time((await adminCall(sb, 'GET', '/clock')).body.now);
    await adminCall(sb, 'POST', '/clock/advance', { seconds: (due - now) / 1000 - 2 });
    expect((await get(`${sb.url}/v2/merchants/payouts/${created.body.id}`)).body.status).toBe('new');
    await adminCall(sb, 'POST', '/clock/advance', { seconds: 2 });
    expect((await get(`${sb.url}/v2/merchants/payouts/${created.body.id}`)).body.status).toBe('executed');
  });

  it('a new payin says when it expires', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    const page = await call('GET', created.body.next_action.url);
    expect(timeIn(page.text, 'unattended')).toBe(new Date(time(created.body.expires_at)).toISOString());
    expect(page.text).toMatch(/expires at .*\(30 min after it was created; 30 min from now\)/);
  });

  it('a declined payin shows why, and links back to the fail address; a paid or expired one links back too', async () => {
    const failed = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    await adminCall(sb, 'POST', `/payins/${failed.body.id}/status`, {
      status: 'failed',
      error_code: 'insufficient_funds',
      error_message: 'Not enough <money> on the card.',
    });
    const declined = await call('GET', failed.body.next_action.url);
    expect(declined.text).toContain(
      '<p id="reason"><strong>Reason:</strong> <bdi>Not enough &lt;money&gt; on the card.</bdi> <code><bdi>insufficient_funds</bdi></code></p>',
    );
    expect(declined.text).toContain('<a class="back" id="back" href="https://shop.example/fail">Back to the merchant</a>');
    expect(declined.text).not.toContain('id="unattended"');

    const paid = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    await adminCall(sb, 'POST', `/payins/${paid.body.id}/status`, { status: 'executed' });
    const executed = await call('GET', paid.body.next_action.url);
    expect(executed.text).toContain('href="https://shop.example/ok">Back to the merchant</a>');
    expect(executed.text).not.toContain('id="reason"');

    const old = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    await adminCall(sb, 'POST', `/payins/${old.body.id}/status`, { status: 'expired' });
    expect((await call('GET', old.body.next_action.url)).text).toContain('href="https://shop.example/fail">Back to the merchant</a>');

    // Declined on the page itself, without a fail address: the reason, and no link to nowhere.
    const payout = await post(`${sb.url}/v2/merchants/payouts/`, payoutBody());
    const refused = await call('POST', payout.body.next_action.url, form('decline'));
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('The customer declined the payment on the hosted page.');
    expect(refused.text).toContain('The merchant gave no address to return to');
    expect(refused.text).not.toContain('class="back"');
  });

  it('escapes what the merchant sent', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: '<script>alert(1)</script>' }));
    const page = await call('GET', created.body.next_action.url);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('unknown ids and actions', async () => {
    expect((await call('GET', `${sb.url}/_sandbox/pay/pi_unknown`)).status).toBe(404);
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    expect((await call('POST', created.body.next_action.url, form('steal'))).status).toBe(400);
    expect((await get(`${sb.url}/v2/merchants/payins/${created.body.id}`)).body.status).toBe('new');
  });
});
