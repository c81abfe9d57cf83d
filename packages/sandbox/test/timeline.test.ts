// A transaction's timeline, `GET /_sandbox/<kind>s/<id>/timeline` and its page
// `/_sandbox/timeline/<id>`, over real HTTP on loopback against real webhook receivers. What it
// lists is checked against independent witnesses: the order in which the receiver got the
// webhooks and what it answered, the request log, the interface's retry schedule (at once, then
// 15 min, 30 min, 1 h), and the records' own datetimes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, parseSeed, SandboxAdminError, type TimelineEntry, type TransactionTimeline } from '../src/index.js';
import { PAGE_CSP } from '../src/http.js';
import { PAGE_SCRIPT_PATH } from '../src/page-script.js';
import { escapeHtml } from '../src/html-kit.js';
import { MAX_HISTORY_KEPT } from '../src/records.js';
import {
  adminCall,
  attemptsSettled,
  call,
  CARD,
  freePort,
  get,
  HOSTILE,
  M1,
  M2,
  payinBody,
  payinV1Body,
  payoutBody,
  post,
  push,
  raw,
  receiver,
  sandboxForFile,
  signed,
  start,
  type Started,
  withoutGenerated,
} from './helpers.js';

let sb!: Started;
sandboxForFile((s) => (sb = s));

const MIN = 60_000;
const ms = (datetime: string) => Date.parse(`${datetime}Z`);
const statusOf = (r: { body: string }) => JSON.parse(r.body).status as string;

/** An entry in a few words: whole timelines are compared by these. */
function summary(e: TimelineEntry): string {
  switch (e.type) {
    case 'request':
      return `request ${e.operation} ${e.status ?? 'dropped'}${e.code === null ? '' : ` ${e.code}`}`;
    case 'status':
      return `status ${e.status} by ${e.cause}${e.error_code === null ? '' : ` (${e.error_code})`}`;
    case 'resend':
      return `resend ${e.status} by ${e.cause}`;
    case 'webhook':
      return `webhook ${e.status} #${e.attempt} ${e.response_status ?? e.error ?? 'due'}`;
  }
}

async function timeline(kind: 'payin' | 'payout', id: string): Promise<TransactionTimeline> {
  const answer = await adminCall(sb, 'GET', `/${kind}s/${id}/timeline`);
  expect(answer.status).toBe(200);
  return answer.body;
}

const webhooks = (t: TransactionTimeline) => t.entries.filter((e) => e.type === 'webhook');

/** The customer's click on the hosted payment page: its form, as a browser posts it. */
const onHostedPage = (url: string, action: 'pay' | 'decline') =>
  call('POST', url, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}` });

/** What a dashboard button sends: the admin call, with the Origin a browser names on the sandbox's own page. */
const fromDashboard = (path: string, body?: unknown) =>
  call('POST', `${sb.url}/_sandbox${path}`, {
    headers: { origin: sb.url, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Checks the retry schedule of one delivery's five failed attempts against the interface's. */
function expectSchedule(attempts: Extract<TimelineEntry, { type: 'webhook' }>[]): void {
  expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
  const at = attempts.map((a) => ms(a.at));
  expect(at[1]! - at[0]!).toBeLessThan(MIN); // at once (on wall time: an attempt's own duration)
  expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(15 * MIN); // 15 min after attempt 2 ended
  expect(at[2]! - at[1]!).toBeLessThan(16 * MIN);
  expect(at[3]! - at[2]!).toBe(30 * MIN); // the driven clock runs each exactly when due
  expect(at[4]! - at[3]!).toBe(60 * MIN);
  for (const [i, a] of attempts.entries()) {
    expect(a.sent_at).toBe(a.at);
    expect(a.next_attempt_at).toBe(i < 4 ? attempts[i + 1]!.due_at : null);
  }
}

describe('GET /_sandbox/<kind>s/<id>/timeline', () => {
  it('a payin paid while its receiver answers 500 for the whole schedule, looked up by reference and id, resent from the dashboard', async () => {
    let answer = 500;
    const hooks = await receiver(() => answer);
    try {
      const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-7', webhook_url: hooks.url() }));
      const id: string = created.body.id;
      await attemptsSettled(sb, id, 2); // `new`, attempts 1 and 2 (at once); the third is 15 min away
      expect((await onHostedPage(created.body.next_action.url, 'pay')).status).toBe(303);
      await attemptsSettled(sb, id, 4); // `executed`, attempts 1 and 2
      // Through the whole schedule: 15 + 30 + 60 minutes after attempt 2.
      await adminCall(sb, 'POST', '/clock/advance', { seconds: 2 * 3600 });
      // The merchant's reconciler looks it up, by reference and by id.
      const byReference = await get(`${sb.url}/v2/merchants/payins/?reference_id=order-7`);
      const byId = await get(`${sb.url}/v2/merchants/payins/${id}`);
      expect([byReference.body.status, byId.body.status]).toEqual(['executed', 'executed']);
      // The receiver is back; someone clicks Resend on the dashboard.
      answer = 200;
      expect((await fromDashboard(`/payins/${id}/resend`)).status).toBe(200);
      await attemptsSettled(sb, id, 11);

      const t = await timeline('payin', id);
      expect(t.entries.map(summary)).toEqual([
        'request createPayin 200',
        'status new by create',
        'webhook new #1 500',
        'webhook new #2 500',
        'status executed by payment_page',
        'webhook executed #1 500',
        'webhook executed #2 500',
        'webhook new #3 500',
        'webhook executed #3 500',
        'webhook new #4 500',
        'webhook executed #4 500',
        'webhook new #5 500',
        'webhook executed #5 500',
        'request getPayinByReference 200',
        'request getPayin 200',
        'resend executed by dashboard',
        'webhook executed #1 200',
      ]);

      // The webhooks are those the receiver got, in the order it got them, with its answers.
      expect(webhooks(t).map((w) => `${w.status} ${w.response_status}`)).toEqual(hooks.all.map((r) => `${statusOf(r)} ${r.answered}`));
      for (const w of webhooks(t)) expect(w.url).toBe(hooks.url());
      // The schedule of each failed delivery is the interface's; the resend is delivered at once.
      for (const status of ['new', 'executed'])
        expectSchedule(
          webhooks(t)
            .filter((w) => w.status === status)
            .slice(0, 5),
        );
      const last = t.entries.at(-1) as Extract<TimelineEntry, { type: 'webhook' }>;
      expect(last).toMatchObject({ attempt: 1, response_status: 200, error: null, next_attempt_at: null });

      // The requests are the request log's, and the status changes say which one caused them.
      const log = new Map<number, { method: string; path: string; status: number }>(
        (await adminCall(sb, 'GET', '/requests')).body.map((r: { seq: number }) => [r.seq, r]),
      );
      const requests = t.entries.filter((e) => e.type === 'request');
      expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
        ['POST', '/v2/merchants/payins/', 200],
        ['GET', '/v2/merchants/payins/?reference_id=order-7', 200],
        ['GET', `/v2/merchants/payins/${id}`, 200],
      ]);
      for (const r of requests) expect(log.get(r.request_seq)).toMatchObject({ method: r.method, path: r.path, status: r.status });
      const [createdBy, paidBy] = t.entries.filter((e) => e.type === 'status');
      expect(createdBy!.request_seq).toBe(requests[0]!.request_seq);
      expect(paidBy!.request_seq).toBeNull(); // the hosted page is not a service endpoint

      // Times are the schedule clock's: the records' own, in order, never past now.
      expect(createdBy!.at).toBe(created.body.created_at);
      expect(paidBy!.at).toBe(t.transaction.updated_at);
      expect(ms(requests[0]!.at)).toBeLessThanOrEqual(ms(createdBy!.at));
      const times = t.entries.map((e) => ms(e.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(ms(t.now)).toBeGreaterThanOrEqual(times.at(-1)!);
      expect(t.transaction).toMatchObject({ kind: 'payin', id, merchant_id: M1.id, reference_id: 'order-7', status: 'executed' });
    } finally {
      await hooks.close();
    }
  });

  it('a payout whose receiver is down, executed by the clock, and lookups that were refused or missed it', async () => {
    const port = await freePort(); // nothing listens there: every attempt is refused
    const created = await post(
      `${sb.url}/v2/merchants/payouts/`,
      payoutBody({ reference_id: 'payout-9', webhook_url: `http://127.0.0.1:${port}/hooks` }),
    );
    const id: string = created.body.id;
    await attemptsSettled(sb, id, 2);
    await adminCall(sb, 'POST', '/clock/advance', { seconds: 2 * 3600 });
    // Lookups that name it without getting it: another merchant's, and one signed with a wrong secret.
    expect((await get(`${sb.url}/v2/merchants/payouts/${id}`, M2)).status).toBe(404);
    expect((await get(`${sb.url}/v2/merchants/payouts/?reference_id=payout-9`, { id: M1.id, secret: 'sk_wrong' })).status).toBe(401);
    // And some that are not about it: another reference, the same reference in another merchant's
    // space, its id as a payin.
    for (const [url, merchant] of [
      [`${sb.url}/v2/merchants/payouts/?reference_id=payout-90`, M1],
      [`${sb.url}/v2/merchants/payouts/?reference_id=payout-9`, M2],
      [`${sb.url}/v2/merchants/payins/${id}`, M1],
    ] as const)
      expect((await get(url, merchant)).status).toBe(404);

    const t = await sb.admin.timeline('payout', id);
    expect(t.entries.map(summary)).toEqual([
      'request createPayout 200',
      'status new by create',
      'webhook new #1 connection refused',
      'webhook new #2 connection refused',
      'status executed by clock',
      'webhook executed #1 connection refused',
      'webhook executed #2 connection refused',
      'webhook new #3 connection refused',
      'webhook executed #3 connection refused',
      'webhook new #4 connection refused',
      'webhook executed #4 connection refused',
      'webhook new #5 connection refused',
      'webhook executed #5 connection refused',
      'request getPayout 404 not_found',
      'request getPayoutByReference 401 bad_signature',
    ]);
    for (const status of ['new', 'executed']) expectSchedule(webhooks(t).filter((w) => w.status === status));
    for (const w of webhooks(t)) expect(w.response_status).toBeNull();
    // A payout still new 60 s after creation is executed by the clock.
    const executed = t.entries.find((e) => e.type === 'status' && e.status === 'executed')!;
    expect(ms(executed.at) - ms(created.body.created_at)).toBe(60_000);
    const [missed, refused] = t.entries.filter((e) => e.type === 'request').slice(1);
    expect(missed).toMatchObject({
      merchant_id: M2.id,
      method: 'GET',
      path: `/v2/merchants/payouts/${id}`,
      message: 'no payout with this id',
    });
    expect(refused).toMatchObject({ merchant_id: M1.id, path: '/v2/merchants/payouts/?reference_id=payout-9', code: 'bad_signature' });
    // The admin client's answer is the admin API's.
    const rawAnswer = await timeline('payout', id);
    expect(rawAnswer.entries).toEqual(t.entries);
    expect(rawAnswer.transaction).toEqual(t.transaction);
  });

  // What caused each status change, by every way a transaction changes; each row checks the
  // status changes and resends of one transaction.
  const causes: [string, (tx: { id: string; next_action: { url: string } }) => Promise<unknown>, string[], Record<string, unknown>?][] = [
    [
      'the card push, an accepted card',
      (tx) => push(tx.next_action.url, tx.id, CARD),
      ['status new by create', 'status executed by card_push'],
      { method: 'card' },
    ],
    [
      'the card push, a declined card',
      (tx) => push(tx.next_action.url, tx.id, { ...CARD, pan: '4000000000000002' }),
      ['status new by create', 'status failed by card_push (card_declined)'],
      { method: 'card' },
    ],
    [
      'Decline on the hosted payment page',
      (tx) => onHostedPage(tx.next_action.url, 'decline'),
      ['status new by create', 'status failed by payment_page (declined)'],
    ],
    [
      'the admin API (no Origin: a script), a status it does not know, then a final one',
      async (tx) => {
        await sb.admin.setStatus('payin', tx.id, 'processing', undefined, { unknownStatus: true });
        await sb.admin.setStatus('payin', tx.id, 'failed', { code: 'insufficient_funds' });
      },
      ['status new by create', 'status processing by admin_api', 'status failed by admin_api (insufficient_funds)'],
    ],
    [
      'a dashboard button (the page names its origin)',
      (tx) => fromDashboard(`/payins/${tx.id}/status`, { status: 'executed' }),
      ['status new by create', 'status executed by dashboard'],
    ],
    [
      'the clock, past expires_at',
      () => adminCall(sb, 'POST', '/clock/advance', { seconds: 31 * 60 }),
      ['status new by create', 'status expired by clock'],
    ],
    [
      'a resend through the admin API, then from the dashboard',
      async (tx) => {
        await sb.admin.resend('payin', tx.id);
        await fromDashboard(`/payins/${tx.id}/resend`);
      },
      ['status new by create', 'resend new by admin_api', 'resend new by dashboard'],
    ],
  ];

  it.each(causes)('what changed it: %s', async (_name, act, expected, overrides = {}) => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody(overrides));
    await act(created.body);
    const t = await timeline('payin', created.body.id);
    expect(t.entries.filter((e) => e.type === 'status' || e.type === 'resend').map(summary)).toEqual(expected);
    // A change made by a request of the merchant's links to it.
    for (const change of t.entries.filter((e) => e.type === 'status')) {
      const by = t.entries.find((e) => e.type === 'request' && e.request_seq === change.request_seq);
      const operation = ({ create: 'createPayin', card_push: 'pushCard' } as Record<string, string>)[change.cause];
      expect(by === undefined ? undefined : (by as { operation: string }).operation).toBe(operation);
    }
  });

  it('a seed file: created and moved by the seed', async () => {
    const seeded = await start({
      seed: parseSeed({
        transactions: [
          { kind: 'payin', reference_id: 'seed-1', amount: '5.00', currency: 'EUR', status: 'failed', error_code: 'card_declined' },
        ],
      }),
    });
    try {
      const [tx] = await seeded.admin.transactions();
      const t = await seeded.admin.timeline('payin', tx!.id);
      expect(t.entries.map(summary)).toEqual(['status new by seed', 'status failed by seed (card_declined)']);
    } finally {
      await seeded.close();
    }
  });

  it(`keeps a transaction's newest ${MAX_HISTORY_KEPT} status changes and resends`, async () => {
    // A legacy payin without webhook_url: no webhooks, only changes.
    const { webhook_url: _none, ...body } = payinV1Body();
    const created = await post(`${sb.url}/v1/merchants/payins/`, body);
    // Statuses it does not know are not final: they can alternate for ever.
    for (let i = 0; i < MAX_HISTORY_KEPT + 20; i++)
      await sb.admin.setStatus('payin', created.body.id, i % 2 ? 'odd' : 'even', undefined, { unknownStatus: true });
    const changes = (await timeline('payin', created.body.id)).entries.filter((e) => e.type === 'status');
    expect(changes).toHaveLength(MAX_HISTORY_KEPT);
    expect(changes.at(-1)!.status).toBe('odd'); // the last of 120 changes, i = 119
    expect(changes[0]!.status).toBe('even'); // the oldest kept: i = 20 (new and i = 0..19 forgotten)
  });

  it('answers 404 for an unknown id or the wrong kind, 405 to anything but GET, 403 off this machine', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody());
    for (const path of ['/payins/pi_nope/timeline', `/payouts/${created.body.id}/timeline`]) {
      const answer = await adminCall(sb, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
    const post405 = await adminCall(sb, 'POST', `/payins/${created.body.id}/timeline`);
    expect(post405.status).toBe(405);
    expect(post405.headers.get('allow')).toBe('GET');
    await expect(sb.admin.timeline('payout', created.body.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(sb.admin.timeline('payout', created.body.id)).rejects.toBeInstanceOf(SandboxAdminError);
    await expect(sb.admin.timeline('refund' as 'payin', created.body.id)).rejects.toThrow(TypeError);
    await expect(sb.admin.timeline('payin', '')).rejects.toThrow(TypeError);
    const core = createSandbox({ merchants: [M1] });
    try {
      for (const path of [`/_sandbox/payins/${created.body.id}/timeline`, `/_sandbox/timeline/${created.body.id}`]) {
        expect((await core.fetch(new Request(`http://sandbox.test${path}`), { remoteAddress: '192.0.2.10' })).status).toBe(403);
      }
    } finally {
      core.close();
    }
  });

  it('survives a restart with a state file: the same status changes, resends and webhooks (the request log is not kept)', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'pay-sandbox-timeline-')), 'state.json');
    const hooks = await receiver(() => 500);
    let first: Started | undefined = await start({ stateFile });
    let second: Started | undefined;
    try {
      const created = await post(`${first.url}/v2/merchants/payins/`, payinBody({ webhook_url: hooks.url() }));
      await attemptsSettled(first, created.body.id, 2);
      await first.admin.setStatus('payin', created.body.id, 'executed');
      await attemptsSettled(first, created.body.id, 4);
      await first.admin.resend('payin', created.body.id);
      await attemptsSettled(first, created.body.id, 6);
      const before = await first.admin.timeline('payin', created.body.id);
      await first.close();
      first = undefined;
      second = await start({ stateFile });
      const after = await second.admin.timeline('payin', created.body.id);
      expect(after.transaction).toEqual(before.transaction);
      // Without the request log, no change links to a request any more.
      expect(after.entries).toEqual(
        before.entries.flatMap((e): TimelineEntry[] =>
          e.type === 'request' ? [] : e.type === 'status' ? [{ ...e, request_seq: null }] : [e],
        ),
      );
      expect(after.entries.map(summary)).toEqual([
        'status new by create',
        'webhook new #1 500',
        'webhook new #2 500',
        'status executed by admin_api',
        'webhook executed #1 500',
        'webhook executed #2 500',
        'resend executed by admin_api',
        'webhook executed #1 500',
        'webhook executed #2 500',
        'webhook new #3 due',
        'webhook executed #3 due',
        'webhook executed #3 due',
      ]);
    } finally {
      await first?.close();
      await second?.close();
      await hooks.close();
    }
  });
});

describe('the timeline page', () => {
  const types = (html: string) => [...html.matchAll(/<li class="event [^"]*" data-type="([a-z]+)"/g)].map((m) => m[1]);

  it('lists the entries of the JSON in its order, links each request to the requests page, and is linked from the other pages', async () => {
    const created = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'order-8' }));
    const id: string = created.body.id;
    await get(`${sb.url}/v2/merchants/payins/?reference_id=order-8`);
    await get(`${sb.url}/v2/merchants/payins/${id}`, M2); // 404: another merchant's, still about it
    await get(`${sb.url}/v2/merchants/payins/?reference_id=order-9`); // not about it
    await sb.admin.setStatus('payin', id, 'executed');
    await attemptsSettled(sb, id, 4);
    const t = await timeline('payin', id);

    const page = await adminCall(sb, 'GET', `/timeline/${id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(page.text).toContain(`<script type="module" src="/_sandbox${PAGE_SCRIPT_PATH}"></script>`);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.text).not.toMatch(/\son[a-z]+=/i);
    expect(types(page.text)).toEqual(t.entries.map((e) => e.type));
    const seqs = t.entries.flatMap((e) => (e.type === 'request' ? [e.request_seq] : []));
    expect(seqs).toHaveLength(3);
    for (const seq of seqs) expect(page.text).toContain(`<a href="/_sandbox/log?transaction=${id}#request-${seq}" data-link="request">`);
    expect(page.text).toContain('<strong>Look up a payin by reference id</strong>');
    expect(page.text).toContain(`<span class="status status-executed">executed</span>`);

    // The requests page, filtered to the transaction, lists exactly the requests of its timeline.
    const log = (await adminCall(sb, 'GET', `/log?transaction=${id}`)).text;
    expect([...log.matchAll(/<tr class="request" id="request-(\d+)"/g)].map((m) => Number(m[1]))).toEqual([...seqs].reverse());
    expect(log).toContain(`<a href="/_sandbox/timeline/${id}" data-link="timeline">timeline</a>`);
    // The dashboard's row links to it.
    expect((await adminCall(sb, 'GET', '/')).text).toContain(`<a href="/_sandbox/timeline/${id}" data-link="timeline">timeline</a>`);
  });

  it('an unknown transaction is a 404 page that shows the id as text', async () => {
    const page = await raw(sb.url, { method: 'GET', path: '/_sandbox/timeline/<b>pi_nope', headers: [] });
    expect(page.status).toBe(404);
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.text).toContain('<bdi>&lt;b&gt;pi_nope</bdi>');
    expect(page.text).not.toContain('<b>');
    expect((await adminCall(sb, 'POST', '/timeline/pi_nope')).status).toBe(405);
  });

  it('shows hostile values as text, and neither credentials nor card data', async () => {
    // A reference that is markup, looked up with a raw query (fetch would percent-encode it).
    const markup = '<svg/onload=alert(1)>';
    const hostileWebhook = 'https://user:pass@hooks.invalid/pay?token=s3cret';
    const evil = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: markup, webhook_url: hostileWebhook }));
    const path = `/v2/merchants/payins/?reference_id=${markup}`;
    const looked = await raw(sb.url, { method: 'GET', path, headers: Object.entries(signed(M1, 'GET', `${sb.url}${path}`)) });
    expect(looked.status).toBe(200);
    await sb.admin.setStatus('payin', evil.body.id, 'failed', { code: HOSTILE, message: `${HOSTILE}\u202Eevil` });
    await attemptsSettled(sb, evil.body.id, 2);
    const card = await post(`${sb.url}/v2/merchants/payins/`, payinBody({ method: 'card', reference_id: HOSTILE }));
    await push(card.body.next_action.url, card.body.id, { ...CARD, csc: '987' });

    const page = (await adminCall(sb, 'GET', `/timeline/${evil.body.id}`)).text;
    expect(page).not.toContain('<svg');
    expect(page).not.toContain('<img');
    expect(page).toContain(`<bdi>${escapeHtml(markup)}</bdi>`); // the reference
    // The lookup, a line break allowed after each / and ?.
    expect(page).toContain(`<code class="text">GET <bdi>${escapeHtml(path).replace(/([/?])/g, '$1<wbr>')}</bdi></code>`);
    expect(page).toContain(`<bdi>${escapeHtml(HOSTILE)}</bdi>: <bdi>${escapeHtml(HOSTILE)}\u202Eevil</bdi>`); // the error, isolated
    const json = JSON.stringify(await timeline('payin', evil.body.id));
    for (const shown of [page, json]) {
      expect(shown).not.toContain('user:pass');
      expect(shown).not.toContain('s3cret');
      expect(shown).not.toContain(M1.secret);
    }
    expect(json).toContain('https://***@hooks.invalid/pay?token=***');

    const cardPage = (await adminCall(sb, 'GET', `/timeline/${card.body.id}`)).text;
    const cardJson = JSON.stringify(await timeline('payin', card.body.id));
    expect(cardPage).toContain('•••• 4242');
    expect(cardPage).toContain(`<bdi>${escapeHtml(HOSTILE)}</bdi>`);
    for (const shown of [cardPage, cardJson]) {
      expect(shown).not.toContain(CARD.pan);
      expect(withoutGenerated(shown)).not.toContain('987');
      expect(shown).not.toContain(/\/push\/([^/]+)\//.exec(card.body.next_action.url)![1]); // the push token
    }
  });
});
