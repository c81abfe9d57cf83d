// Client mode: an SDK driven through the harness protocol's client commands against the service
// the runner plays (the embedded sandbox behind the runner's recording, fault-injecting proxy).
// Each row of cases.ts in turn: set up, the proxy's rules armed, the command sent, then the wire,
// the answer and, for a create, exactly-once judged, each with the runner's own code. Two copies
// of the child take the rows in turn, each against a service of its own (see LANES).
import { randomBytes } from 'node:crypto';
import { gotOf, judgeAnswer, readAnswer, type AnswerFinding } from './answer.js';
import {
  CLIENT_CASES,
  COMMAND_LIMIT_MS,
  SETTLE_SECONDS,
  TOLERANCE_SECONDS,
  commandLimitOf,
  timeoutOf,
  totalTimeoutOf,
  type ClientCase,
} from './cases.js';
import { referenceIn } from './body.js';
import { judgeOnce, judgePushOnce, madeBy } from './once.js';
import { judgeTotal, judgeTrickled } from './time-limits.js';
import { cardOf, cardPayinOf, hostileReference, paramsOf, wireBodyOf, type CreateKind } from './params.js';
import type { Resource } from './routes.js';
import type { Exchange, Rule } from './proxy.js';
import { idOf, startClientService, type AdminRecord, type ClientService } from './service.js';
import type { Finding } from './finding.js';
import { judgeWire, type Operation } from './wire.js';
import type { Child } from '../../harness/child.js';
import { Children, STDERR_MAX } from '../../harness/children.js';
import { answeredError } from '../../harness/judgement.js';
import { chosen } from '../../harness/selection.js';
import { judgeNoAnswer, judgeOutOfStep } from '../../harness/outcome.js';
import { summarise } from '../../report/summary.js';
import { FAILED_STATUSES, PROTOCOL_VERSION, type CaseResult, type ClientCommand, type RunResult } from '../../types.js';
import { leakIn, redactDeep } from '../redact.js';
import { jsonOf } from '../send.js';

/** What to drive, and how. */
export interface ClientRunOptions {
  argv: string[];
  /** the command line as given, for reports */
  command: string;
  version: string;
  startTimeoutMs: number;
  maxRestarts: number;
  /** only the cases whose id matches one of these (`*` wildcard); one that matches none is a SelectionError */
  ids?: string[];
  onCase?: (result: CaseResult, done: number, total: number) => void;
}

/** The time zone the child runs in (UTC-03:30, or -02:30 in summer): never UTC, and not whole hours. */
const CHILD_TIME_ZONE = 'America/St_Johns';

/** Another transaction's amount for a used reference_id: the given decimal plus one, its digits kept. */
const otherAmount = (amount: string) => amount.replace(/^[0-9]+/, (units) => String(Number(units) + 1));

/** How long the proxy holds an answer in a case, if it does. */
const heldMs = (c: ClientCase): number | undefined => {
  for (const r of c.rules ?? []) if (r.action.kind === 'hold_answer') return r.action.ms;
  return undefined;
};

/** What a case's judge says: its status, what the SDK answered, and why. */
type Verdict = Pick<CaseResult, 'status' | 'got' | 'diagnosis' | 'mistake'>;

/** The mistakes of an answer that only say it is wrong, not why. */
const PLAIN_MISREADINGS = new Set(['wrong_outcome', 'record_misread', 'error_missed']);

/**
 * An answer finding named by the case's cause, where the case varies what the interface leaves
 * free and a plain "wrong outcome" or "record misread" says no more than that the SDK misread it.
 */
function named(c: ClientCase, f: AnswerFinding | null): AnswerFinding | null {
  if (!f || !c.misread || !PLAIN_MISREADINGS.has(f.mistake)) return f;
  return { mistake: c.misread.mistake, text: `${c.misread.text} (${f.text})` };
}

/** The operation each command performs: its resource, and the create it makes, if any. */
const OPERATIONS: Record<ClientCommand, { resource: Resource; create?: CreateKind }> = {
  client_create_payin: { resource: 'payins', create: 'payin' },
  client_create_payin_legacy: { resource: 'payins', create: 'legacy' },
  client_create_payout: { resource: 'payouts', create: 'payout' },
  client_get_payin: { resource: 'payins' },
  client_get_payin_by_reference: { resource: 'payins' },
  client_get_payout: { resource: 'payouts' },
  client_get_payout_by_reference: { resource: 'payouts' },
  client_push_card: { resource: 'payins' },
};

const idOfCase = (c: ClientCase) => `${c.category}/${c.name}`;

/**
 * A create's operation given no reference_id, with the one the SDK made for it: the reference_id
 * its first attempt carried, when it carried one (its lookups must ask for that one).
 */
function withOwnReference(op: Operation, log: readonly { route: { kind: string }; body: Buffer }[]): Operation {
  const first = log.find((ex) => ex.route.kind === 'create');
  const own = first ? referenceIn(first.body) : null;
  return own !== null ? { ...op, reference: own } : op;
}

/**
 * How many copies of the child run cases side by side, each against a service of its own (its own
 * proxy, sandbox, merchant and secret): most of a run is waiting (tolerance and settle windows, time
 * limits), and two copies halve it. A copy that cannot start beside the first (an adapter with a
 * fixed port, say) is left out, and the first runs every case.
 */
const LANES = 2;

/** The cases not yet taken by a lane, in plan order; a case a stopped lane could not run goes back first. */
class Queue {
  private next = 0;
  private readonly returned: number[] = [];
  constructor(private readonly size: number) {}
  take(): number | undefined {
    if (this.returned.length > 0) return this.returned.shift();
    return this.next < this.size ? this.next++ : undefined;
  }
  giveBack(i: number): void {
    this.returned.push(i);
  }
  /** Every case no lane will run now. */
  rest(): number[] {
    const out = [...this.returned];
    while (this.next < this.size) out.push(this.next++);
    this.returned.length = 0;
    return out;
  }
}

/** Runs the client cases against the implementation. */
export async function runClient(o: ClientRunOptions): Promise<RunResult> {
  const started = Date.now();
  const ids = chosen(CLIENT_CASES.map(idOfCase), o.ids, 'client case id');
  const plan = CLIENT_CASES.filter((c) => ids.has(idOfCase(c)));
  const results: CaseResult[] = new Array(plan.length);
  let done = 0;
  const record = (i: number, r: CaseResult) => {
    results[i] = r;
    o.onCase?.(r, ++done, plan.length);
  };
  const services = await Promise.all(Array.from({ length: LANES }, () => startClientService(TOLERANCE_SECONDS, 10_000)));
  const spent = { restarts: 0 };
  const lanes = services.map((service) => new Lane(o, service, plan, record, spent));
  const [first, ...others] = lanes as [Lane, ...Lane[]];
  const queue = new Queue(plan.length);
  let stoppedEarly: string | undefined;
  try {
    const hello = await first.start(true);
    if (hello !== null) {
      for (const [i, c] of plan.entries())
        record(i, first.notRun(c, `not run: the implementation did not start (${hello.why})`, hello.stderr));
    } else {
      // The others start beside the first, which is already running cases.
      await Promise.all([
        first.work(queue),
        ...others.map(async (lane) => {
          if ((await lane.start(false)) === null) await lane.work(queue);
        }),
      ]);
      const stopped = lanes.find((l) => l.stoppedEarly !== undefined);
      const rest = queue.rest();
      if (rest.length > 0 && stopped) {
        stoppedEarly = stopped.stoppedEarly;
        for (const i of rest) record(i, stopped.notRun(plan[i]!, `not run: ${stopped.stoppedEarly}`, stopped.stoppedStderr));
      }
    }
  } finally {
    await Promise.all(lanes.map((l) => l.children.close()));
    await Promise.all(services.map((s) => s.close()));
  }
  const redact = (text: string) => services.reduce((t, s) => s.redact(t), text);
  return {
    mode: 'client',
    suite: 'pay-conformance client',
    suite_version: o.version,
    protocol: PROTOCOL_VERSION,
    vectors_dir: '',
    implementation: redactDeep(
      {
        command: o.command,
        hello: first.children.hello,
        ...(first.helloError ? { hello_error: first.helloError } : {}),
      },
      redact,
    ),
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    cases: results,
    categories: summarise(results),
    restarts: spent.restarts,
    ...(stoppedEarly ? { stopped_early: redact(stoppedEarly) } : {}),
  };
}

/** A command sent: what the SDK answered, what went over the wire, and when it started and answered. */
interface Exchanged {
  out: Awaited<ReturnType<Child['request']>>;
  log: Exchange[];
  startedAt: number;
  answeredAt: number;
}

/** What a case set up: the operation judged, and the fields of its command. */
interface Prepared {
  op: Operation;
  fields: Record<string, unknown>;
  /** records with the create's reference_id before the SDK's create */
  before: number;
  /** whether those are this create's (same amount) or another transaction's */
  beforeIsOurs?: boolean;
  /** a create: the ids of every record of its resource before the SDK's create, to tell the ones it made */
  known?: Set<string>;
}

/** One lane of a client-mode run: a child and the service it calls, taking cases from the queue. */
class Lane {
  readonly children: Children;
  helloError: string | undefined;
  stoppedEarly: string | undefined;
  stoppedStderr = '';
  private declared = new Set<string>();
  private readonly tag = randomBytes(4).toString('hex');
  private references = 0;

  constructor(
    o: ClientRunOptions,
    private readonly service: ClientService,
    private readonly plan: readonly ClientCase[],
    private readonly record: (i: number, r: CaseResult) => void,
    spent: { restarts: number },
  ) {
    this.children = new Children({
      argv: o.argv,
      timeoutMs: COMMAND_LIMIT_MS,
      // The service's datetimes have no offset and are UTC: a child that reads them as local
      // time is caught only where local time is not UTC, and half an hour off shows it best.
      env: { ...process.env, TZ: CHILD_TIME_ZONE },
      startTimeoutMs: o.startTimeoutMs,
      maxRestarts: o.maxRestarts,
      spent,
    });
  }

  /**
   * Starts the lane's child and says hello: null when it answered, else why not. The first lane's
   * child that cannot be started at all is the harness's failure (HarnessError); another lane's is
   * only left out.
   */
  async start(first: boolean): Promise<{ why: string; stderr: string } | null> {
    let ready: Awaited<ReturnType<Children['start']>>;
    try {
      ready = await this.children.start(first);
    } catch (e) {
      if (first) throw e;
      return { why: (e as Error).message, stderr: '' };
    }
    if ('why' in ready) {
      if (first) this.helloError = ready.why;
      return ready;
    }
    this.declared = new Set(this.children.hello?.capabilities ?? []);
    return null;
  }

  /** Runs cases from the queue until it is empty, or this lane's child is gone for good. */
  async work(queue: Queue): Promise<void> {
    for (let i = queue.take(); i !== undefined; i = queue.take()) {
      const c = this.plan[i]!;
      if (!this.declared.has(c.command)) {
        this.record(
          i,
          this.result(c, { status: 'skip', got: null, diagnosis: `the implementation does not declare the ${c.command} capability` }, 0),
        );
        continue;
      }
      const ready = await this.children.ready();
      if ('why' in ready) {
        // Another lane may still run it; if none can, runClient reports it not run, with this reason.
        queue.giveBack(i);
        this.stoppedEarly = ready.why;
        this.stoppedStderr = ready.stderr;
        return;
      }
      this.record(i, await this.one(c, ready.child));
    }
  }

  /** A case not run, and why. */
  notRun(c: ClientCase, why: string, stderr = ''): CaseResult {
    return this.result(c, { status: 'not_run', got: null, diagnosis: why }, 0, stderr);
  }

  private reference(label: string): string {
    return hostileReference(this.tag, label, ++this.references);
  }

  /** Sets a case up: what the runner creates first, and the command's fields. A string says why it could not. */
  private async prepare(c: ClientCase): Promise<Prepared | string> {
    const s = this.service;
    const { resource, create } = OPERATIONS[c.command];
    const common = {
      base_url: c.tls ? s.tlsBaseUrl : s.baseUrl,
      card_proxy_url: s.cardProxyUrl,
      merchant_id: s.me.merchantId,
      secret: s.me.secret,
      timeout_ms: timeoutOf(c),
      total_timeout_ms: totalTimeoutOf(c),
      tolerance_seconds: TOLERANCE_SECONDS,
      settle_seconds: c.settleSeconds ?? SETTLE_SECONDS,
    };
    if (create) {
      const reference = this.reference(c.name);
      const kind: CreateKind = create === 'payout' && c.paymentPage ? 'payout-page' : create;
      const usual = paramsOf(kind, this.tag, reference);
      const params = c.params ? c.params(usual) : usual;
      let before = 0;
      if (c.setup === 'used-reference' || c.setup === 'used-reference-other') {
        const payment = params['payment'] as { amount: string };
        // Another transaction's amount: the given one plus 1.
        const amount = c.setup === 'used-reference' ? payment.amount : otherAmount(payment.amount);
        const a = await s.create(resource, 'v2', wireBodyOf({ ...params, payment: { ...payment, amount } }));
        if (idOf(a) === null) return `the runner's own create of the used reference_id got HTTP ${a.status}`;
        before = 1;
      }
      const version = create === 'legacy' ? 'v1' : 'v2';
      const given = params['reference_id'];
      return {
        op: { resource, create: { version, params }, ...(typeof given === 'string' ? { reference: given } : {}) },
        fields: { ...common, params, ...(create === 'payout' ? { payment_page: c.paymentPage === true } : {}) },
        before,
        beforeIsOurs: c.setup !== 'used-reference-other',
        known: new Set((await s.list(resource)).map((r) => r.id)),
      };
    }
    if (c.setup === 'nothing') {
      const reference = this.reference('nothing');
      return { op: { resource, reference }, fields: { ...common, reference_id: reference }, before: 0 };
    }
    const reference = this.reference(`setup ${c.name}`);
    const body =
      c.setup === 'card-payin'
        ? cardPayinOf(this.tag, reference)
        : paramsOf(resource === 'payins' ? 'payin' : 'payout', this.tag, reference);
    const a = await s.create(resource, 'v2', wireBodyOf(body));
    const id = idOf(a);
    if (id === null) return `the runner's own create for the lookup got HTTP ${a.status}`;
    if (c.command === 'client_push_card') {
      const url = (jsonOf(a)?.['next_action'] as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string' || !url.startsWith(`${s.cardProxyUrl}/`))
        return "the card payin's create answered no push address under the card proxy";
      const card = cardOf();
      return {
        op: { resource, push: { target: url.slice(new URL(url).origin.length), payinId: id, card } },
        fields: { ...common, url, payin_id: id, card },
        before: 0,
      };
    }
    if (c.command.endsWith('_by_reference'))
      return { op: { resource, reference }, fields: { ...common, reference_id: reference }, before: 0 };
    return { op: { resource, id }, fields: { ...common, id }, before: 0 };
  }

  /** One case: set up, the rules armed, the command sent (twice, when the case says so), everything judged. */
  private async one(c: ClientCase, child: Child): Promise<CaseResult> {
    const t0 = performance.now();
    const s = this.service;
    s.proxy.clear();
    let prepared: Prepared | string;
    try {
      prepared = await this.prepare(c);
    } catch (e) {
      prepared = `the set-up failed: ${(e as Error).message}`;
    }
    if (typeof prepared === 'string') return this.result(c, { status: 'not_run', got: null, diagnosis: `not run: ${prepared}` }, t0);
    const mark = child.stderrMark();
    const verdict = c.first
      ? await this.twoCommands(c, c.first, child, prepared)
      : await this.verdictOf(c, child, prepared, await this.exchange(c, child, prepared.fields, c.rules ?? []));
    const stderr = FAILED_STATUSES.has(verdict.status) ? child.stderrSince(mark, STDERR_MAX) : '';
    return this.result(c, verdict, t0, stderr);
  }

  /**
   * A case of two commands: the first under `firstRules`, judged as any; what the case names is
   * what the SDK does the second time. The second is sent at once, and the first judged after: an
   * SDK keeps an idle connection only so long (Node's agent: 5 s), and a case about the second
   * create sent on the first one's connection must not wait out that time judging. A runner
   * loaded enough to spend it there let an SDK that re-sends on a new connection pass.
   */
  private async twoCommands(c: ClientCase, firstRules: readonly Rule[], child: Child, prepared: Prepared): Promise<Verdict> {
    const { misread: _second, ...plain } = c;
    const first = await this.exchange(plain, child, prepared.fields, firstRules);
    // Only after an answer in step (a child that did not answer, or answered another case, is stopped).
    const inStep = first.out.kind === 'answer' && first.out.value['case'] === idOfCase(c);
    const second = inStep ? await this.exchange(c, child, prepared.fields, c.rules ?? []) : null;
    // What the sandbox held after the first command, told from what it holds now by what the
    // second made: the first is judged on it, and what the first create made is there before the
    // second, and is this create's.
    const now = prepared.op.create ? await this.service.list(prepared.op.resource) : undefined;
    const madeBySecond = second === null ? new Set<string>() : madeBy(second.log);
    const held = now?.filter((r) => !madeBySecond.has(r.id));
    const verdict = await this.verdictOf(plain, child, prepared, first, held);
    if (verdict.status !== 'pass') return { ...verdict, diagnosis: `the first of the two commands: ${verdict.diagnosis ?? ''}` };
    // Not reached (a first command not in step fails above): never a pass without the second.
    if (second === null) return { status: 'error', got: null, diagnosis: 'the second of the two commands was not sent' };
    const before = held === undefined ? prepared.before : held.filter((r) => r.reference_id === prepared.op.reference).length;
    return this.verdictOf(c, child, { ...prepared, before, beforeIsOurs: true }, second, now);
  }

  /**
   * The case's command sent once under `rules`: what the SDK answered, and what went over the
   * wire. The proxy bounds every hold by the command's own limit, so that nothing the SDK sent (an
   * x-timestamp hours ahead, say) makes the case wait longer.
   */
  private async exchange(c: ClientCase, child: Child, fields: Record<string, unknown>, rules: readonly Rule[]): Promise<Exchanged> {
    const s = this.service;
    const limit = commandLimitOf(c);
    s.proxy.clear(rules, limit);
    const startedAt = Date.now();
    const out = await child.request({ cmd: c.command, case: idOfCase(c), ...fields }, limit);
    const answeredAt = Date.now();
    await s.proxy.settle();
    const log = [...s.proxy.log];
    s.proxy.clear();
    return { out, log, startedAt, answeredAt };
  }

  /**
   * The verdict on a command's exchange. `held`: the sandbox's records of the create's resource
   * when it was over (listed now when not given).
   */
  private async verdictOf(c: ClientCase, child: Child, prepared: Prepared, exchanged: Exchanged, held?: AdminRecord[]): Promise<Verdict> {
    const { out, log, startedAt, answeredAt } = exchanged;
    if (out.kind !== 'answer') {
      child.kill();
      const verdict = judgeNoAnswer(out, '', '');
      // Stopped at the command's limit while still calling the service: its own limit was ignored.
      const late = out.kind === 'timeout' ? judgeTotal(startedAt, null, totalTimeoutOf(c), log) : null;
      return late ? { ...verdict, mistake: late.mistake, diagnosis: `${verdict.diagnosis ?? ''}: the SDK ${late.text}` } : verdict;
    }
    if (out.value['case'] !== idOfCase(c)) {
      child.kill();
      return judgeOutOfStep(out.value, idOfCase(c), null);
    }
    const failed = answeredError(out.value);
    if (failed && failed.status === 'error' && c.misread) {
      // The SDK itself failed (an exception) on an answer the interface leaves free to vary: that
      // is the misreading the case is about.
      return { status: 'fail', got: failed.got, mistake: c.misread.mistake, diagnosis: `${c.misread.text} (${failed.diagnosis})` };
    }
    return failed ?? (await this.judge(c, prepared, out.value, log, { startedAt, answeredAt }, held));
  }

  /** The wire, exactly-once (a create, a push) and the answer: every finding, the first named as the mistake. */
  private async judge(
    c: ClientCase,
    p: Prepared,
    value: Record<string, unknown>,
    log: Parameters<typeof judgeWire>[0],
    when: { startedAt: number; answeredAt: number },
    held?: AdminRecord[],
  ): Promise<Verdict> {
    const answer = readAnswer(value);
    if (typeof answer === 'string') return { status: 'error', got: null, diagnosis: `the answer is not a client answer: ${answer}` };
    const s = this.service;
    // A create given no reference_id: its lookups are judged against the one the SDK made for it.
    const op = p.op.create && p.op.reference === undefined ? withOwnReference(p.op, log) : p.op;
    // What went on the wire first: a request that was not the one asked for (its body, URL,
    // timestamp, length) explains what the service and the count made of it.
    const findings: Finding[] = judgeWire(log, op, {
      me: s.me,
      toleranceSeconds: TOLERANCE_SECONDS,
      zone: CHILD_TIME_ZONE,
      sensitive: s.sensitive,
    });
    // How long it waited, by the runner's clock: an attempt read past timeout_ms, a call past
    // total_timeout_ms. They explain a record answered where a timeout was due.
    findings.push(...judgeTrickled(log, timeoutOf(c)));
    const late = judgeTotal(when.startedAt, when.answeredAt, totalTimeoutOf(c), log);
    if (late) findings.push(late);
    // What the SDK made of an answer the interface leaves free to vary explains what the count
    // made of it (a 201 taken for a failure is a create "failed" that exists): it comes before.
    const a = named(c, judgeAnswer(answer, c.expect, log, { heldMs: heldMs(c), zone: CHILD_TIME_ZONE }));
    if (a && c.misread && a.mistake === c.misread.mistake) findings.push(a);
    if (p.op.create) {
      // The records with the reference given that were there before, and every one made since,
      // whatever its reference_id: a re-send under another (or none) is counted too.
      const all = held ?? (await s.list(p.op.resource));
      const known = p.known ?? new Set<string>();
      const given = p.op.reference ?? null;
      const records = [
        ...all.filter((r) => known.has(r.id) && given !== null && r.reference_id === given),
        ...all.filter((r) => !known.has(r.id)),
      ];
      findings.push(
        ...judgeOnce(
          log,
          {
            resource: p.op.resource,
            reference: given,
            before: p.before,
            beforeIsOurs: p.beforeIsOurs ?? true,
            toleranceSeconds: TOLERANCE_SECONDS,
            settleSeconds: Number(p.fields['settle_seconds']),
          },
          records,
          answer,
        ),
      );
    }
    if (p.op.push) findings.push(...judgePushOnce(log));
    if (!p.op.create && !p.op.push && answer.outcome === 'ok' && !log.some((ex) => ex.route.kind.startsWith('lookup'))) {
      findings.push({
        mistake: 'lookup_cached',
        text: 'answered a record though no lookup reached the service: an answer from a cache; a record changes (its status, above all), so every lookup asks the service',
      });
    } else if (a && a.mistake !== c.misread?.mistake) findings.push(a);
    const leak =
      answer.outcome === 'error' ? leakIn([answer.message ?? '', answer.code ?? '', ...answer.paths].join('\n'), s.sensitive) : null;
    if (leak) {
      findings.push({
        mistake: 'secret_in_error',
        text: `the SDK's error carries ${leak}: errors end up in logs, trackers and support tickets; never put the secret or card data in one`,
      });
    }
    const got = { ...gotOf(answer), requests: log.length };
    if (findings.some((f) => f.mistake === 'count_disagrees')) {
      return { status: 'error', got, diagnosis: findings.find((f) => f.mistake === 'count_disagrees')!.text };
    }
    if (findings.length === 0) return { status: 'pass', got };
    return { status: 'fail', got, mistake: findings[0]!.mistake, diagnosis: findings.map((f) => f.text).join('; ') };
  }

  private result(c: ClientCase, v: Pick<CaseResult, 'status' | 'got' | 'diagnosis' | 'mistake'>, t0: number, stderr = ''): CaseResult {
    // What the SDK printed and answered (its code, paths, ids), and what a diagnosis quotes, may
    // hold the run's secret or the card pushed, in any encoding: every field is masked.
    return redactDeep(
      {
        id: idOfCase(c),
        category: c.category,
        command: c.command,
        status: v.status,
        description: c.description,
        flags: [],
        expected: c.expect,
        got: v.got ?? null,
        ...(v.diagnosis !== undefined ? { diagnosis: v.diagnosis } : {}),
        ...(v.mistake !== undefined ? { mistake: v.mistake } : {}),
        ...(stderr ? { stderr } : {}),
        duration_ms: t0 === 0 ? 0 : Math.round(performance.now() - t0),
      },
      this.service.redact,
    );
  }
}
