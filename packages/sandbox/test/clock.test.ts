// The sandbox on a clock it is given (@pay/clock): signatures judged and signed by clock.now(), the
// schedule clock on it, due jobs run from its alarms, and the admin API's advance moving a test
// clock. The test clock starts far from real time (2031), so any read of Date.now() that decides
// something shows up as a difference of years; its hours pass in milliseconds of real time.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { createTestClock, type TestClock } from '@pay/clock/test-clock';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { EXPIRY_SECONDS, PAYOUT_EXECUTION_SECONDS } from '../src/wire/settings.js';
import { adminCall, call, get, M1, nowSeconds, payinBody, payoutBody, signed, start, type Started, webhookSignatureOk } from './helpers.js';

const START = Date.parse('2031-05-01T09:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const time = (datetime: string) => Date.parse(`${datetime}Z`);
const seconds = (ms: number) => Math.floor(ms / 1000);

let sandbox: Started | undefined;
let server: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });
  server = undefined;
});

async function startOn(clock: TestClock): Promise<Started> {
  sandbox = await start({ clock });
  return sandbox;
}

/** A webhook as the receiver saw it, with the test clock's time at its arrival. */
interface Arrival {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  url: string;
}

/** A real loopback receiver that notes the clock's time of each webhook and answers `status`. */
async function failingReceiver(clock: TestClock, status = 500): Promise<{ url: string; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ at: clock.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '' });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, arrivals };
}

const statusOf = (a: Arrival) => JSON.parse(a.body).status as string;

/** A JSON POST signed at `timestamp` (unix seconds): the helpers' `post` signs at real time. */
function postAt(url: string, body: unknown, timestamp: number) {
  const text = JSON.stringify(body);
  return call('POST', url, { headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, text, timestamp) }, body: text });
}

/** A transaction as the admin API shows it. */
async function transaction(sb: Started, id: string) {
  return (await adminCall(sb, 'GET', '/transactions')).body.find((t: { id: string }) => t.id === id);
}

describe('signatures', () => {
  it("are judged by the clock's time: signed at the clock's time passes, at real time 2 h behind it is expired", async () => {
    const clock = createTestClock({ start: Date.now() + 2 * HOUR });
    const sb = await startOn(clock);
    const url = `${sb.url}/v2/merchants/payins/`;
    const body = JSON.stringify(payinBody({ reference_id: 'on-the-clock' }));
    const onClock = await call('POST', url, {
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body, seconds(clock.now())) },
      body,
    });
    expect(onClock.status).toBe(200);
    const atRealTime = await call('POST', url, {
      headers: { 'content-type': 'application/json', ...signed(M1, 'POST', url, body, nowSeconds()) },
      body,
    });
    expect(atRealTime.status).toBe(401);
    expect(atRealTime.body.error.code).toBe('expired');
    // The hint measures the offset from the sandbox's clock, not from the machine's.
    expect(atRealTime.body.error.hint).toMatch(/^x-timestamp is 7\d{3} s behind the sandbox's clock/);
  });

  it('follow the clock as it moves: 60 s old passes, 61 s old is expired, either way', async () => {
    const clock = createTestClock({ start: START });
    const sb = await startOn(clock);
    const url = `${sb.url}/v2/merchants/payins/`;
    const send = (reference: string, timestamp: number) => postAt(url, payinBody({ reference_id: reference }), timestamp);
    const t0 = seconds(clock.now());
    await clock.advance('60s');
    expect((await send('sixty-behind', t0)).status).toBe(200);
    expect((await send('sixty-ahead', t0 + 120)).status).toBe(200);
    await clock.advance('1s');
    const behind = await send('sixty-one-behind', t0);
    expect(behind.status).toBe(401);
    expect(behind.body.error.code).toBe('expired');
    const ahead = await send('sixty-one-ahead', t0 + 122);
    expect(ahead.status).toBe(401);
    expect(ahead.body.error.code).toBe('expired');
    // Lookups and the card push are judged on the same clock.
    const created = (await adminCall(sb, 'GET', '/transactions')).body[0];
    const lookup = `${sb.url}/v2/merchants/payins/${created.id}`;
    expect((await call('GET', lookup, { headers: signed(M1, 'GET', lookup, '', seconds(clock.now())) })).status).toBe(200);
    expect((await get(lookup)).status).toBe(401); // signed at real time, years away
  });

  it('a wrong clock option is refused, naming the option', () => {
    expect(() => createSandbox({ clock: {} as never })).toThrow(/^clock\.now must be a function/);
    expect(() => createSandbox({ clock: 'now' as never })).toThrow(TypeError);
  });
});

describe('the retry schedule on a test clock', () => {
  it('a failing receiver gets attempts at +0, +0, +15 min, +30 min, +1 h, signed at the clock time, as two hours pass in well under a second', async () => {
    const clock = createTestClock({ start: START });
    const sb = await startOn(clock);
    const hooks = await failingReceiver(clock);
    const created = await postAt(
      `${sb.url}/v2/merchants/payins/`,
      payinBody({ reference_id: 'down', webhook_url: hooks.url }),
      seconds(START),
    );
    expect(created.status).toBe(200);
    // Nothing runs while the test clock stands still: the first attempt is due, not sent.
    expect(hooks.arrivals).toEqual([]);
    const before = performance.now();
    await clock.advance('2h');
    const realMs = performance.now() - before;
    console.log(`two hours of the test clock took ${Math.round(realMs)} ms of real time`);

    const ofNew = hooks.arrivals.filter((a) => statusOf(a) === 'new');
    expect(ofNew.map((a) => a.at - START)).toEqual([0, 0, 15 * MIN, 45 * MIN, 105 * MIN]);
    for (const a of ofNew) {
      expect(a.headers['x-timestamp']).toBe(String(seconds(a.at)));
      expect(webhookSignatureOk(M1, hooks.url, { url: a.url, headers: a.headers, body: a.body, answered: 500 })).toBe(true);
    }
    // The expiry at 30 min is a second delivery, on the same schedule from its own start.
    const ofExpired = hooks.arrivals.filter((a) => statusOf(a) === 'expired');
    expect(ofExpired.map((a) => a.at - START)).toEqual([30 * MIN, 30 * MIN, 45 * MIN, 75 * MIN]);
    // The delivery log says the same, on the schedule clock; the fifth attempt gave up.
    const log = (await adminCall(sb, 'GET', `/deliveries?transaction_id=${created.body.id}`)).body.filter(
      (a: { status: string }) => a.status === 'new',
    );
    expect(log.map((a: { sent_at: string }) => time(a.sent_at) - START)).toEqual([0, 0, 15 * MIN, 45 * MIN, 105 * MIN]);
    expect(log.map((a: { response_status: number }) => a.response_status)).toEqual([500, 500, 500, 500, 500]);
    expect(clock.now()).toBe(START + 2 * HOUR);
    expect(time((await adminCall(sb, 'GET', '/clock')).body.now)).toBe(START + 2 * HOUR);
  });
});

describe('expiry and payout execution', () => {
  it('happen at their clock times, not before', async () => {
    const clock = createTestClock({ start: START });
    const sb = await startOn(clock);
    const created = await postAt(`${sb.url}/v2/merchants/payins/`, payinBody({ reference_id: 'expires' }), seconds(START));
    const paid = await postAt(`${sb.url}/v2/merchants/payouts/`, payoutBody({ reference_id: 'executes' }), seconds(START));
    expect([created.status, paid.status]).toEqual([200, 200]);
    expect(time(created.body.created_at)).toBe(START);

    await clock.advance(PAYOUT_EXECUTION_SECONDS * 1000 - 1);
    expect((await transaction(sb, paid.body.id)).status).toBe('new');
    await clock.advance(1);
    const executed = await transaction(sb, paid.body.id);
    expect(executed.status).toBe('executed');
    expect(time(executed.updated_at)).toBe(START + PAYOUT_EXECUTION_SECONDS * 1000);

    await clock.advance(EXPIRY_SECONDS * 1000 - PAYOUT_EXECUTION_SECONDS * 1000 - 1);
    expect((await transaction(sb, created.body.id)).status).toBe('new');
    await clock.advance(1);
    const expired = await transaction(sb, created.body.id);
    expect(expired.status).toBe('expired');
    expect(time(expired.updated_at)).toBe(START + EXPIRY_SECONDS * 1000);
  });
});

describe('requests as tracked work', () => {
  it('a request is busy work on the clock from its arrival to its answer, so an advance waits for it', async () => {
    const clock = createTestClock({ start: START });
    const sb = await startOn(clock);
    const { port } = new URL(sb.url);
    const body = JSON.stringify(payinBody({ reference_id: 'slow-body' }));
    const url = `${sb.url}/v2/merchants/payins/`;
    const head = Object.entries({ 'content-type': 'application/json', ...signed(M1, 'POST', url, body, seconds(START)) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const socket = connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('\r\n\r\n{')) resolve(text);
      });
    });
    try {
      // The headers and half the body: the request has arrived, its answer is not decided yet.
      socket.write(
        `POST /v2/merchants/payins/ HTTP/1.1\r\nhost: ${new URL(sb.url).host}\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      socket.write(body.slice(0, 10));
      while (clock.busy.length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(clock.busy).toEqual(['sandbox.request']);
      const advanced = clock.advance('1s');
      socket.write(body.slice(10));
      await advanced; // resolves once the request is answered
      expect(clock.busy).toEqual([]);
      expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
      expect((await adminCall(sb, 'GET', '/transactions')).body.map((t: { reference_id: string }) => t.reference_id)).toEqual([
        'slow-body',
      ]);
    } finally {
      socket.destroy();
    }
  });
});

describe('the admin API on a test clock', () => {
  it('clock/advance moves the test clock itself, and what falls due runs on the way', async () => {
    const clock = createTestClock({ start: START });
    const sb = await startOn(clock);
    const hooks = await failingReceiver(clock, 200);
    const created = await postAt(
      `${sb.url}/v2/merchants/payouts/`,
      payoutBody({ reference_id: 'admin-advance', webhook_url: hooks.url }),
      seconds(START),
    );
    expect(created.status).toBe(200);
    const answer = await sb.admin.advance(3600);
    expect(clock.now()).toBe(START + HOUR);
    expect(time(answer.now)).toBe(START + HOUR);
    expect(hooks.arrivals.map((a) => [statusOf(a), a.at - START])).toEqual([
      ['new', 0],
      ['executed', PAYOUT_EXECUTION_SECONDS * 1000],
    ]);
    // Moving the test clock directly moves what the sandbox says too.
    await clock.advance('30m');
    expect(time((await sb.admin.clock()).now)).toBe(START + HOUR + 30 * MIN);
  });
});
