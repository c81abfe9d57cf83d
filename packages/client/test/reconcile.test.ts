// Exactly once, against a scripted stand-in of the service over real HTTP: every way a create's
// answer can be lost, and what the client concludes. Client and stand-in share a test clock (see
// helpers/reconcile.ts), so the waits for tolerance and settle windows take no real time and each
// x-timestamp is exact; the tests run concurrently.
import { describe, expect, it } from 'vitest';
import { ApiError, createClient, InvalidRequestError, NetworkError, OutcomeUnknownError, TimeoutError } from '../src/index.js';
import { dropAfterCommit, dropBeforeCommit, failure, SETTLE, setup, T } from './helpers/reconcile.js';
import { commitRequest, json, legacyPayinBody, MERCHANT, payinBody, payoutBody, SECRET } from './helpers/server.js';

describe.concurrent('a create whose answer is lost', { timeout: 40_000 }, () => {
  it('dropped after commit: found by reference_id, not sent again', async () => {
    await using t = await setup();
    t.server.next.push(dropAfterCommit);
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'drop-after' }) as never));
    expect(result.reconciled).toBe(true);
    expect(result.referenceId).toBe('drop-after');
    expect(result.data.reference_id).toBe('drop-after');
    expect(t.server.service.count('drop-after')).toBe(1);
    expect(t.server.received.map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(t.server.received[1]!.url).toBe(`${t.server.base}/v2/merchants/payins/?reference_id=drop-after`);
    expect(t.events.map((e) => [e.step, e.reason])).toEqual([
      ['lookup', 'network error'],
      ['found', 'network error'],
    ]);
  });

  it('500 after commit: found, not sent again', async () => {
    await using t = await setup();
    t.server.next.push((req, res, service) => {
      commitRequest(service, req);
      json(res, 500, { error: { code: 'internal', message: 'oops' } });
    });
    const result = await t.run(t.pay.payouts.create(payoutBody({ reference_id: 'five-hundred' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(1);
    expect(t.server.service.count('five-hundred')).toBe(1);
  });

  it('2xx with an unreadable body (an HTML page) after commit: found', async () => {
    await using t = await setup();
    t.server.next.push((req, res, service) => {
      commitRequest(service, req);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>ok</html>');
    });
    const result = await t.run(t.pay.payins.createLegacy(legacyPayinBody({ reference_id: 'html' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(1);
  });

  it('dropped before commit: sent again only after the first timestamp is past tolerance + 1 + settle', async () => {
    await using t = await setup();
    t.server.next.push(dropBeforeCommit);
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'drop-before' }) as never));
    expect(result.reconciled).toBe(false);
    expect(t.server.service.count('drop-before')).toBe(1);
    expect(t.posts()).toHaveLength(2);
    expect(t.ts(1)).toBeGreaterThanOrEqual(t.ts(0) + T + 1 + SETTLE);
    // The same bytes, signed afresh.
    expect(t.posts()[1]!.body.equals(t.posts()[0]!.body)).toBe(true);
    expect(t.posts()[1]!.headers['x-signature']).not.toBe(t.posts()[0]!.headers['x-signature']);
    expect(t.server.received.every((r) => r.signatureOk)).toBe(true);
    // The lookup that proved it was sent after the deadline, and missed.
    const lookups = t.server.received.filter((r) => r.method === 'GET');
    expect(Number(lookups[lookups.length - 1]!.headers['x-timestamp'])).toBeGreaterThanOrEqual(t.ts(0) + T + 1 + SETTLE);
    expect(t.events.map((e) => e.step)).toContain('resend');
    expect(t.events[t.events.length - 1]!.step).toBe('resend');
  });

  it('the service clock behind by 3 s (Date header): the proof waits for the service clock', async () => {
    await using t = await setup();
    t.server.service.clockBehind = 3;
    t.server.next.push(dropBeforeCommit);
    await t.run(t.pay.payins.create(payinBody({ reference_id: 'slow-clock' }) as never));
    expect(t.posts()).toHaveLength(2);
    expect(t.ts(1)).toBeGreaterThanOrEqual(t.ts(0) + T + 1 + SETTLE + 3);
    expect(t.server.service.count('slow-clock')).toBe(1);
  });

  it('a timeout, the first attempt committing late (within the settle window): found, not sent again', async () => {
    // The attempt gives up after 1 s of real time (its one deadline that bounds the network: its
    // whole body has long arrived, even on a loaded machine). The test clock stands still while the
    // attempt is in flight, so the service commits it 1.8 s of the clock after it arrived: after
    // the client gave up, and well inside the 3 s settle window.
    await using t = await setup({ timeoutMs: 1_000, settleSeconds: 3 });
    t.server.next.push((req, res, service) => {
      t.clock.alarm(1_800, () => {
        commitRequest(service, req);
        res.socket?.destroy();
      });
    });
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'late' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(1);
    expect(t.server.service.count('late')).toBe(1);
  });

  it('lookup lag shorter than settleSeconds: found once visible, never sent again', async () => {
    // A lag of 3 s on the service's clock (the test clock): the lookups within it miss.
    await using t = await setup({ settleSeconds: 4 });
    t.server.next.push((req, res, service) => {
      service.lagUntil = service.now() + 3_000;
      dropAfterCommit(req, res, service);
    });
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'lagging' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(1);
    expect(t.server.received.filter((r) => r.method === 'GET').length).toBeGreaterThan(1);
  });

  it('the re-send is lost too: reconciled again, still one record', async () => {
    await using t = await setup({ retries: 2 });
    t.server.next.push(dropBeforeCommit);
    // The re-send comes after lookups, so it is scripted where the service answers.
    let resends = 0;
    const answer = t.server.service.answer.bind(t.server.service);
    t.server.service.answer = (req, res) => {
      if (req.method === 'POST' && ++resends === 1) return dropAfterCommit(req, res, t.server.service);
      return answer(req, res);
    };
    const result = await t.run(t.pay.payouts.create(payoutBody({ reference_id: 'lost-twice' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(2);
    expect(t.server.service.count('lost-twice')).toBe(1);
  });

  it('proven not created with no re-send left: the original error, not OutcomeUnknownError', async () => {
    await using t = await setup({ retries: 0 });
    t.server.next.push(dropBeforeCommit);
    const error = await failure(t.run(t.pay.payins.create(payinBody({ reference_id: 'gave-up' }) as never)));
    expect(error).toBeInstanceOf(NetworkError);
    expect(t.posts()).toHaveLength(1);
    expect(t.server.service.count('gave-up')).toBe(0);
  });

  it('no time left to prove it: OutcomeUnknownError with the reference_id and when it becomes decidable', async () => {
    await using t = await setup({ totalTimeoutMs: 800 });
    t.server.next.push(dropBeforeCommit);
    const error = (await failure(t.run(t.pay.payins.create(payinBody({ reference_id: 'in-doubt' }) as never)))) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.referenceId).toBe('in-doubt');
    expect(error.decidableAt.getTime()).toBe((t.ts(0) + T + 1 + SETTLE) * 1000);
    // The dropped connection, or, on a loaded machine, the 800 ms running out before the client
    // saw it dropped: either way the attempt's own error.
    expect(error.cause).toSatisfy((cause) => cause instanceof NetworkError || cause instanceof TimeoutError);
    expect(error.message).toContain('"in-doubt"');
    expect(t.posts()).toHaveLength(1);
    expect(t.events[t.events.length - 1]!.step).toBe('unknown');
  });

  it('aborted by the caller while reconciling: OutcomeUnknownError', async () => {
    await using t = await setup();
    t.server.next.push(dropBeforeCommit);
    const controller = new AbortController();
    // The clock is never moved: after its first lookup the client waits on it until the abort.
    const pending = failure(t.pay.payins.create(payinBody({ reference_id: 'aborted' }) as never, { signal: controller.signal }));
    while (!t.server.received.some((r) => r.method === 'GET')) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('user went away'));
    const error = (await pending) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error.cause as Error).message).toBe('user went away');
    expect(t.posts()).toHaveLength(1);
  });

  it('a lookup refused (401) while reconciling: OutcomeUnknownError, never a re-send', async () => {
    await using t = await setup();
    t.server.next.push(dropBeforeCommit, (_req, res) => json(res, 401, { error: { code: 'expired', message: 'clock' } }));
    const error = (await failure(
      t.run(t.pay.payins.create(payinBody({ reference_id: 'refused-lookup' }) as never)),
    )) as OutcomeUnknownError;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error.cause as ApiError).status).toBe(401);
    expect(t.posts()).toHaveLength(1);
  });

  it('the reference found belongs to another amount: OutcomeUnknownError, not a false success', async () => {
    await using t = await setup();
    t.server.next.push((req, res, service) => {
      commitRequest(service, req, (body) => {
        body['payment'] = { amount: 99, currency: 'EUR' };
      });
      res.socket?.destroy();
    });
    const error = await failure(t.run(t.pay.payins.create(payinBody({ reference_id: 'other-amount' }) as never)));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/different amount or currency/);
  });

  // 12345678901234567.89 and .88 are one binary double: compared as numbers they would match.
  it("the reference found differs only past a double's precision: OutcomeUnknownError, compared as decimals", async () => {
    await using t = await setup();
    t.server.next.push((req, res, service) => {
      commitRequest(service, req, (body) => {
        body['payment'] = { amount: '12345678901234567.88', currency: 'EUR' };
      });
      res.socket?.destroy();
    });
    const body = payinBody({ reference_id: 'past-double', payment: { amount: '12345678901234567.89', currency: 'EUR' } });
    const error = await failure(t.run(t.pay.payins.create(body as never)));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/different amount or currency/);
  });

  it('the reference found spells the amount another way (10.50 for 10.5): found, the same payin', async () => {
    await using t = await setup();
    t.server.next.push((req, res, service) => {
      commitRequest(service, req, (body) => {
        body['payment'] = { amount: '10.50', currency: 'EUR' };
      });
      res.socket?.destroy();
    });
    const result = await t.run(
      t.pay.payins.create(payinBody({ reference_id: 'spelt', payment: { amount: 10.5, currency: 'EUR' } }) as never),
    );
    expect(result.reconciled).toBe(true);
    expect(t.posts()).toHaveLength(1);
  });
});

describe.concurrent('answers that refuse a create', { timeout: 20_000 }, () => {
  it('409 duplicate reference_id of the same payin: resolved by lookup, reported as done', async () => {
    await using t = await setup();
    t.server.service.commit('payins', { reference_id: 'dup', payment: { amount: 10.5, currency: 'EUR' } });
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'dup' }) as never));
    expect(result.reconciled).toBe(true);
    expect(result.response.status).toBe(200);
    expect(t.server.service.count('dup')).toBe(1);
    expect(t.events.map((e) => [e.step, e.reason])).toEqual([
      ['lookup', 'status 409'],
      ['found', 'status 409'],
    ]);
  });

  it('409 for a reference_id used by a different payin: ApiError, nothing created', async () => {
    await using t = await setup();
    t.server.service.commit('payins', { reference_id: 'taken', payment: { amount: 1, currency: 'USD' } });
    const error = (await failure(t.run(t.pay.payins.create(payinBody({ reference_id: 'taken' }) as never)))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/already belongs to another transaction/);
    expect(t.server.service.count('taken')).toBe(1);
  });

  it("409 for a reference_id used by a payin whose amount differs past a double's precision: ApiError, not a false success", async () => {
    // 12345678901234567.01 and .02 are one and the same binary double (12345678901234568): only
    // the decimal text tells them apart.
    await using t = await setup();
    t.server.service.commit('payins', { reference_id: 'taken-digits', payment: { amount: '12345678901234567.01', currency: 'EUR' } });
    const body = payinBody({ reference_id: 'taken-digits', payment: { amount: '12345678901234567.02', currency: 'EUR' } });
    const error = (await failure(t.run(t.pay.payins.create(body as never)))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/already belongs to another transaction/);
  });

  it('409 for a reference_id used by the same payin, its amount written with other digits (10.5 for 10.50): found', async () => {
    await using t = await setup();
    t.server.service.commit('payins', { reference_id: 'dup-digits', payment: { amount: 10.5, currency: 'EUR' } });
    const result = await t.run(
      t.pay.payins.create(payinBody({ reference_id: 'dup-digits', payment: { amount: '10.50', currency: 'EUR' } }) as never),
    );
    expect(result.reconciled).toBe(true);
    expect(t.server.service.count('dup-digits')).toBe(1);
  });

  it('409 while lookups lag: looked up again until visible', async () => {
    await using t = await setup();
    t.server.service.commit('payouts', { reference_id: 'dup-lag', payment: { amount: 25, currency: 'EUR' } });
    t.server.service.lagUntil = t.server.service.now() + 700;
    const result = await t.run(t.pay.payouts.create(payoutBody({ reference_id: 'dup-lag' }) as never));
    expect(result.reconciled).toBe(true);
    expect(t.server.service.count('dup-lag')).toBe(1);
  });

  it('429: waits as asked, checks by reference, sends again', async () => {
    await using t = await setup();
    t.server.next.push((_req, res) => {
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'rate' }) as never));
    expect(result.reconciled).toBe(false);
    expect(t.server.received.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(t.server.service.count('rate')).toBe(1);
  });

  it('connection refused (provably never sent): sent again at once, no reconciliation', async () => {
    await using t = await setup();
    let calls = 0;
    const fetch = (url: string, init: RequestInit) => {
      if (++calls === 1)
        return Promise.reject(
          new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }),
        );
      return globalThis.fetch(url, init);
    };
    const pay = createClient({
      clock: t.clock,
      baseUrl: t.server.base,
      merchantId: MERCHANT,
      secret: SECRET,
      fetch: fetch as never,
      hooks: { onReconcile: () => t.events.push({} as never) },
    });
    const result = await t.run(pay.payins.create(payinBody({ reference_id: 'refused' }) as never));
    expect(result.reconciled).toBe(false);
    expect(calls).toBe(2);
    expect(t.events).toHaveLength(0);
  });
});

describe('creates in flight with the same reference_id', () => {
  it('the same body twice at once: one request, one result', async () => {
    await using t = await setup();
    const body = payinBody({ reference_id: 'twice' });
    const [a, b] = await Promise.all([t.pay.payins.create(body as never), t.pay.payins.create(body as never)]);
    expect(a).toBe(b);
    expect(t.posts()).toHaveLength(1);
  });

  it('a different body with the same reference_id while the first is in flight: refused', async () => {
    await using t = await setup();
    const first = t.pay.payins.create(payinBody({ reference_id: 'clash' }) as never);
    const error = await failure(
      t.pay.payins.create(payinBody({ reference_id: 'clash', payment: { amount: 1, currency: 'EUR' } }) as never),
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((await first).data.reference_id).toBe('clash');
  });
});

describe('a given fetch that ignores its signal', () => {
  /**
   * A fetch that sends for real but drops `init.signal` (as a careless wrapper does) and holds the
   * answers of the methods in `hold` forever: only the client itself can end such an attempt.
   */
  function deafFetch(hold: string[]) {
    const held: string[] = [];
    let holding = () => {};
    const fetch = async (url: string, init: RequestInit) => {
      const response = await globalThis.fetch(url, { ...init, signal: null });
      if (!hold.includes(init.method ?? 'GET')) return response;
      held.push(init.method!);
      holding();
      return new Promise<never>(() => {});
    };
    /** Resolves when the next answer is held. */
    const nextHeld = () => new Promise<void>((resolve) => (holding = resolve));
    return { fetch: fetch as never, held, nextHeld };
  }

  it("a create's attempt still ends at timeoutMs, and the lookup finds it: created once", async () => {
    const deaf = deafFetch(['POST']);
    await using t = await setup({ timeoutMs: 200, fetch: deaf.fetch });
    const result = await t.run(t.pay.payins.create(payinBody({ reference_id: 'deaf' }) as never));
    expect(result.reconciled).toBe(true);
    expect(deaf.held).toEqual(['POST']);
    expect(t.posts()).toHaveLength(1);
    expect(t.server.service.count('deaf')).toBe(1);
  });

  it('a lookup ends at timeoutMs', async () => {
    const deaf = deafFetch(['GET']);
    await using t = await setup({ timeoutMs: 200, retries: 0, fetch: deaf.fetch });
    expect(await failure(t.run(t.pay.payins.get('pi_none')))).toBeInstanceOf(TimeoutError);
    expect(deaf.held).toEqual(['GET']);
    expect(t.gets()).toHaveLength(1);
  });

  it("a lookup ends at its caller's abort", async () => {
    // The usual time limit (15 s), so that only the abort can end it: with 200 ms, a loaded machine
    // ran the limit out between the answer being held and the abort, and the call ended a timeout.
    const deaf = deafFetch(['GET']);
    await using t = await setup({ retries: 0, fetch: deaf.fetch });
    const controller = new AbortController();
    const reason = new Error('the caller gave up');
    const held = deaf.nextHeld();
    const call = failure(t.pay.payins.get('pi_none', { signal: controller.signal }));
    await held;
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(t.gets()).toHaveLength(1);
  });
});
