// Exactly once, counted by the runner: after a create, from the proxy's own log (every attempt,
// whatever reference_id it carried or none, whether it reached the service, what the service
// answered, what the SDK got) cross-checked with the records the sandbox's admin API lists. The
// SDK's word is judged against these, never taken: a duplicate, a create reported done that does
// not exist, a create reported failed that exists, and a re-send before an earlier attempt was
// proven dead all fail. A re-send is judged by what the SDK could know when it sent it, never by
// what the earlier attempt came to: on a loaded machine the runner's own faults may land late (a
// held create refused as stale, say), and a re-send the rule forbids is a mistake all the same.
import type { ClientAnswer } from './answer.js';
import { idIn, referenceIn } from './body.js';
import type { Exchange } from './proxy.js';
import type { AdminRecord } from './service.js';
import type { Resource } from './routes.js';

/** A finding about exactly-once: a mistake name and what happened. */
export interface OnceFinding {
  mistake: string;
  text: string;
}

/** What the count needs besides the log. */
export interface OnceContext {
  resource: Resource;
  /** the reference_id given to the SDK; null when the params had none (the SDK may make one) */
  reference: string | null;
  /** records with the reference before the SDK's create (a case's "used reference") */
  before: number;
  /** whether those are this create's (the same payment: an earlier attempt) or another transaction's */
  beforeIsOurs: boolean;
  toleranceSeconds: number;
  /** settle_seconds told: how long an accepted create may take to show in a lookup */
  settleSeconds: number;
}

const is2xx = (s: number) => s >= 200 && s < 300;

/**
 * From when (epoch ms) a lookup by reference_id that misses proves `attempt` dead: its x-timestamp
 * + the tolerance (an attempt may be accepted until then) + 1 (an x-timestamp is in whole seconds,
 * and a service may compare in whole seconds) + settle_seconds (an accepted create may take that
 * long to show in a lookup).
 */
const deadAt = (attempt: Exchange, ctx: OnceContext): number =>
  (Number(attempt.headers['x-timestamp'] ?? 0) + ctx.toleranceSeconds + 1 + ctx.settleSeconds) * 1000;

/** Whether `at` (epoch ms) is past the tolerance of `attempt` but inside its settle window. */
function inSettleWindow(attempt: Exchange, at: number, ctx: OnceContext): boolean {
  const dead = deadAt(attempt, ctx);
  return ctx.settleSeconds > 0 && at < dead && at >= dead - ctx.settleSeconds * 1000;
}

/** Whether the SDK got an answer that settles the attempt (a 2xx or a 4xx other than 409 and 429). */
function settled(ex: Exchange): boolean {
  const d = ex.delivered;
  if (d?.kind !== 'answer') return false;
  if (is2xx(d.status)) {
    try {
      return typeof (JSON.parse(ex.deliveredBody!.toString('utf8')) as { id?: unknown }).id === 'string';
    } catch {
      return false;
    }
  }
  return d.status >= 300 && d.status < 500 && d.status !== 409 && d.status !== 429;
}

/** What the SDK had got for an attempt by `when` (ms), in words. */
const wording = (ex: Exchange, when = Number.POSITIVE_INFINITY): string => {
  const d = ex.delivered;
  if (ex.deliveredAt === null || ex.deliveredAt > when) return 'no answer yet: it gave up waiting';
  if (!d || d.kind === 'dropped') return 'its connection was closed with no answer';
  if (d.kind === 'truncated') return 'its answer was cut off';
  return `it got HTTP ${d.status}`;
};

/**
 * The findings of one create: counted from the log, checked against the sandbox's records and the
 * SDK's answer. `records`: those with the reference_id given that were there before the create,
 * and every record of the resource made while the SDK performed it (whatever its reference_id).
 */
export function judgeOnce(
  log: readonly Exchange[],
  ctx: OnceContext,
  records: readonly AdminRecord[],
  answer: ClientAnswer,
): OnceFinding[] {
  // Every create of the case is this command's, whatever reference_id it carried: a re-send under a
  // new one (or with none) is still the same payment sent twice.
  const creates = log.filter((ex) => ex.route.kind === 'create');
  const committed = creates.filter((ex) => ex.upstream !== null && is2xx(ex.upstream.status));
  const findings: OnceFinding[] = [];
  const expected = ctx.before + committed.length;
  if (records.length !== expected) {
    findings.push({
      mistake: 'count_disagrees',
      text: `the runner counted ${expected} record(s) with this reference_id, the sandbox lists ${records.length}: the runner cannot judge this create`,
    });
    return findings;
  }
  for (let i = 1; i < creates.length; i++) {
    const again = creates[i]!;
    const earlier = creates.slice(0, i);
    const done = earlier.find((ex) => ex.upstream !== null && is2xx(ex.upstream.status) && (ex.deliveredAt ?? 0) <= again.at);
    const open = earlier.filter((ex) => !settled(ex));
    const lookups = log.filter((ex) => ex.route.kind === 'lookup-ref' && ex.seq > earlier[earlier.length - 1]!.seq && ex.seq < again.seq);
    if (done) {
      findings.push(byReference(resentAfterDone(earlier, again, lookups, done, ctx), done, again, committed.length));
      break;
    }
    const live = open.find((ex) => again.at < deadAt(ex, ctx));
    if (live) {
      findings.push(byReference(resentBeforeProven(live, again, lookups, ctx), live, again, committed.length));
      break;
    }
  }
  // A record that was there before, of another transaction, is not this create's.
  const made = madeBy(log);
  const ours = ctx.beforeIsOurs ? records : records.filter((r) => made.has(r.id));
  const exists = ctx.beforeIsOurs ? records.length > 0 : committed.length > 0;
  if (answer.outcome === 'ok') {
    const id = answer.record?.['id'];
    if (!ctx.beforeIsOurs && committed.length === 0 && typeof id === 'string' && records.some((r) => r.id === id)) {
      findings.push({
        mistake: 'took_another_record',
        text: `answered the record of another transaction as its create's: the service refused the create (409), the reference_id belongs to a payin of another amount, and nothing was created; compare the record found with the create (amount, currency) and report the conflict`,
      });
    } else if (!exists)
      findings.push({
        mistake: 'reported_done_but_missing',
        text: 'reported the create as done, but no record with its reference_id exists',
      });
    else if (typeof id === 'string' && !ours.some((r) => r.id === id)) {
      findings.push({
        mistake: 'reported_done_but_missing',
        text: `reported the create as done with id ${JSON.stringify(id)}, which is not the record with its reference_id`,
      });
    }
  } else if (answer.outcome === 'error') {
    // A create refused outright (a 4xx other than 409 and 429) is rightly reported failed, whatever
    // exists under its reference_id; after a lost answer or a 409 it may exist, and "failed" needs proof.
    const unsettled = creates.filter((ex) => !settled(ex));
    const last = creates[creates.length - 1];
    if (exists && (committed.length > 0 || unsettled.length > 0)) {
      findings.push({
        mistake: 'reported_failed_but_exists',
        text: `reported a create as failed (error kind ${answer.kind}) although it exists: an attempt whose answer was lost (or answered 409) may have been created; look it up by its reference_id, or answer outcome unknown`,
      });
    } else if (!exists && last && !settled(last) && !refusedAsOthers(last, ctx) && !provenDead(log, last, ctx)) {
      findings.push({
        mistake: 'failed_without_proof',
        text: `reported a create as failed (error kind ${answer.kind}) after its answer was lost, without proving it absent (a lookup by reference_id that the service answers 404 from its x-timestamp + the ${ctx.toleranceSeconds} s tolerance + 1 + settle_seconds, ${ctx.settleSeconds} s, on): it might have existed`,
      });
    }
  } else if (answer.outcome === 'unknown' && !unknownNamesIt(answer.referenceId, creates, ctx)) {
    findings.push({
      mistake: 'unknown_without_reference',
      text: `answered outcome unknown with reference_id ${JSON.stringify(answer.referenceId)}, not the create's (${ctx.reference === null ? 'the one its attempts carried, or null when they carried none' : 'the one given'}): the caller looks the create up by it later`,
    });
  }
  return findings;
}

/**
 * Whether an outcome unknown names the create: the reference_id given; with none given, one its
 * attempts carried (the SDK's own), or null when they carried none.
 */
function unknownNamesIt(answered: string | null, creates: readonly Exchange[], ctx: OnceContext): boolean {
  if (ctx.reference !== null) return answered === ctx.reference;
  const carried = creates.map(referenceOf);
  return answered === null ? carried.every((r) => r === null) : carried.includes(answered);
}

/**
 * A re-send named by the reference_id it carried, where that is the cause: none, like the attempt
 * before it (nothing can tie the two to one payment), or a new one (made again for each attempt).
 */
function byReference(f: OnceFinding, earlier: Exchange, again: Exchange, commits: number): OnceFinding {
  const before = referenceOf(earlier);
  const now = referenceOf(again);
  const outcome = commits > 1 ? `the service now holds ${commits} payments where the caller asked for one` : 'it could have made two';
  if (before === null && now === null) {
    return {
      mistake: 'resent_without_reference',
      text: `re-sent a create that carries no reference_id after an attempt whose answer was lost (${wording(earlier, again.at)}): nothing ties the two attempts to one payment, and ${outcome}. When the caller gives no reference_id, make one (a UUID) before the first attempt, send the same with every attempt and look it up after a lost answer; or answer outcome unknown, never send again`,
    };
  }
  if (before !== null && now !== null && before !== now) {
    return {
      mistake: 'reference_regenerated',
      text: `re-sent a create under a new reference_id after an attempt whose answer was lost (${wording(earlier, again.at)}): a reference_id made anew for each attempt tells the service nothing, and ${outcome}. Make it once per create, before the first attempt, and send the same one with every attempt`,
    };
  }
  return f;
}

/**
 * A re-send after an attempt that was created: named by what the SDK took for proof that it was
 * not (nothing, a proxy's 404 page, a miss inside the settle window, or misses that lag).
 */
function resentAfterDone(
  earlier: readonly Exchange[],
  again: Exchange,
  lookups: readonly Exchange[],
  done: Exchange,
  ctx: OnceContext,
): OnceFinding {
  const got = wording(done, again.at);
  if (lookups.length === 0) {
    return {
      mistake: 'blind_resend',
      text: `re-sent a create blindly after a lost answer: the first attempt was created (${got}), and it sent the create again without looking its reference_id up; a service that does not refuse a used reference_id now holds two`,
    };
  }
  const pages = lookups.filter((ex) => ex.action === 'answer' && ex.delivered?.kind === 'answer' && ex.delivered.status === 404);
  if (pages.length > 0) {
    return {
      mistake: 'proxy_404_as_missing',
      text: `re-sent a create after a lookup by reference_id was answered 404 with an HTML page, a proxy's and not the service's "no such record" (${pages.length} such answer(s)): a 404 that is not the service's JSON proves nothing; the first attempt was created (${got})`,
    };
  }
  const last = earlier[earlier.length - 1]!;
  if (inSettleWindow(last, again.at, ctx))
    return settleIgnored(last, again, ctx, `and this one did; the first attempt was created (${got})`);
  return {
    mistake: 'resend_after_lookup_missed',
    text: `re-sent a create after ${lookups.length} lookup(s) by reference_id missed it, although the first attempt was created (${got}; lookups lag): a miss proves nothing until the first attempt's x-timestamp + the tolerance + 1 + settle_seconds; a service that does not refuse a used reference_id now holds two`,
  };
}

/**
 * A re-send while an earlier attempt, whatever it came to, was not proven dead: named by what the
 * SDK had done by then (nothing, lookups, or lookups past the tolerance but not the settle window).
 */
function resentBeforeProven(live: Exchange, again: Exchange, lookups: readonly Exchange[], ctx: OnceContext): OnceFinding {
  if (lookups.length > 0 && inSettleWindow(live, again.at, ctx)) {
    return settleIgnored(live, again, ctx, 'and it could have made two');
  }
  return {
    mistake: lookups.length === 0 ? 'blind_resend' : 'resend_before_proven',
    text: `re-sent a create ${((again.at - live.at) / 1000).toFixed(1)} s after an attempt whose answer was lost (${wording(live, again.at)})${lookups.length === 0 ? ' without looking its reference_id up' : ''}, while that attempt could still be accepted (its x-timestamp + the ${ctx.toleranceSeconds} s tolerance): it could have made two`,
  };
}

/** A re-send past `attempt`'s tolerance, after lookups missed it, but inside its settle window. */
function settleIgnored(attempt: Exchange, again: Exchange, ctx: OnceContext, outcome: string): OnceFinding {
  const after = (again.at / 1000 - Number(attempt.headers['x-timestamp'] ?? 0)).toFixed(1);
  return {
    mistake: 'settle_ignored',
    text: `re-sent a create ${after} s after the x-timestamp of an attempt whose answer was lost, once lookups missed it past the tolerance (${ctx.toleranceSeconds} s + 1), forgetting settle_seconds (${ctx.settleSeconds} s): an accepted create may take that long more to show in a lookup, ${outcome}`,
  };
}

/** A card push sent more than once: the card data went out twice, to a single-use address. */
export function judgePushOnce(log: readonly Exchange[]): OnceFinding[] {
  const pushes = log.filter((ex) => ex.route.kind === 'push');
  if (pushes.length < 2) return [];
  const first = pushes[0]!;
  return [
    {
      mistake: 'push_resent',
      text: `sent the card push ${pushes.length} times (the first: ${wording(first, pushes[1]!.at)}): a push address is single-use and the card data must leave once; after a lost answer, report the error (or look the payin up), never push again`,
    },
  ];
}

/** The ids of the records that the creates in `log` made: those the service accepted (a 2xx). */
export function madeBy(log: readonly Exchange[]): Set<string> {
  const made = log.filter((ex) => ex.route.kind === 'create' && ex.upstream !== null && is2xx(ex.upstream.status));
  return new Set(made.map((ex) => idIn(ex.upstream!.body)).filter((id): id is string => id !== null));
}

/** A 409 for a reference_id that another transaction holds: proof that this create was refused. */
const refusedAsOthers = (ex: Exchange, ctx: OnceContext) =>
  !ctx.beforeIsOurs && ex.delivered?.kind === 'answer' && ex.delivered.status === 409;

/** Whether a lookup by reference_id missed (404) from the attempt's {@link deadAt} on. */
function provenDead(log: readonly Exchange[], attempt: Exchange, ctx: OnceContext): boolean {
  const from = deadAt(attempt, ctx);
  return log.some(
    (ex) =>
      ex.route.kind === 'lookup-ref' &&
      ex.seq > attempt.seq &&
      ex.at >= from &&
      ex.action !== 'answer' && // a page the proxy answered itself is not the service's 404
      ex.delivered?.kind === 'answer' &&
      ex.delivered.status === 404,
  );
}

/** The reference_id a create carries (null when its body is not JSON or has none). */
const referenceOf = (ex: Exchange): string | null => referenceIn(ex.body);
