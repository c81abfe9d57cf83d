// Server mode: a service implementation tested over real HTTP, every row of the table in cases.ts
// in turn through the one case recorder. Every request is signed here, with the runner's own code
// (signing.ts), never with the toolkit under test.
import { randomBytes } from 'node:crypto';
import { FIRST_STATUS, type TransactionKind } from '@pay/schema';
import { TEST_CARD, bodies, json } from './bodies.js';
import { cardNumberOf, redactor, secretOf } from '../redact.js';
import { CREATES_AT, LOOKUP_BY_REFERENCE, SERVER_CASES, type ServerCase } from './cases.js';
import { endpoints, type Endpoints } from './endpoints.js';
import { requestOf, signedGet, signedPost, type RequestContext, type Subject } from './requests.js';
import { UNCHECKED, acceptedVerdict, echoes, hasId, refusedVerdict, type Afterwards, type AnswerRule } from './verdicts.js';
import { CaseRecorder, type CaseHead, type Verdict } from '../recorder.js';
import { httpResult } from '../result.js';
import { is2xx, jsonOf, send, type HttpAnswer, type HttpCall } from '../send.js';
import type { Signer } from '../../signing.js';
import type { RunResult } from '../../types.js';

/** The service under test, and how to call it. */
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

/** Runs every case of the table against the service. */
export async function runServer(o: ServerOptions): Promise<RunResult> {
  const started = Date.now();
  const run = new ServerRun(o);
  for (const row of SERVER_CASES) await run.case(row);
  return httpResult('server', `${run.base} (card proxy ${run.proxy}, merchant ${o.merchantId})`, o.version, started, run.recorder.cases);
}

/** One run of server mode: what its cases share, and what the earlier ones left for the later. */
class ServerRun implements RequestContext {
  readonly base: string;
  readonly proxy: string;
  readonly url: Endpoints;
  readonly me: Signer;
  readonly bodies: RequestContext['bodies'];
  readonly recorder = new CaseRecorder();
  /** what accepted creates made, for the cases that need it */
  private readonly kept = new Map<TransactionKind, Subject>();
  /** whether lookups by reference work (the case LOOKUP_BY_REFERENCE passed its check) */
  private lookupsWork = false;
  private readonly tag = randomBytes(4).toString('hex');
  private references = 0;

  constructor(private readonly o: ServerOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
    this.proxy = o.cardProxyUrl.replace(/\/+$/, '');
    this.url = endpoints(this.base);
    this.me = { merchantId: o.merchantId, secret: o.secret };
    this.bodies = bodies(this.tag, o.webhookUrl ?? 'https://webhook.invalid/pay-conformance');
    this.redact = redactor([...secretOf(o.secret), ...cardNumberOf(TEST_CARD.pan)]);
  }

  /** Unix seconds now: the clock given, else the wall clock. */
  now(): number {
    return Math.floor(this.o.now ? this.o.now() : Date.now() / 1000);
  }

  /** The id of the payin the first create made, when it was accepted. */
  get payinId(): string | null {
    return this.kept.get('payin')?.id ?? null;
  }

  /** A reference_id of this run that needs percent-encoding in a query: a space, a slash and an "é". */
  private reference(label: string): string {
    return `conf ${this.tag}/${label}-é${++this.references}`;
  }

  /** Sends a call with the run's time limit and TLS leniency. */
  private http(call: HttpCall): Promise<HttpAnswer> {
    return send(call, { timeoutMs: this.o.timeoutMs, ...(this.o.insecure ? { insecure: true } : {}) });
  }

  /** What the service says, never with the secret or the card number in it. */
  private readonly redact: (text: string) => string;

  /** One row: what it needs set up, its request, its verdict, and what it leaves for later rows. */
  async case(row: ServerCase): Promise<void> {
    const head: CaseHead = {
      category: row.expect === '2xx' ? 'server_accepts' : 'server_refuses',
      name: row.name,
      description: typeof row.description === 'string' ? row.description : row.description(this.url),
      expect: row.expect,
    };
    const subject = await this.subjectFor(row);
    if (typeof subject === 'string') return this.recorder.notRun(head, subject);
    const reference = CREATES_AT.has(row.to) ? this.reference(row.reference ?? row.name) : '';
    const call = requestOf(row, this, subject, reference);
    await this.recorder.record(head, async (): Promise<Verdict> => {
      const answer = await this.http(call);
      if (row.expect === 'non-2xx') return refusedVerdict(answer, head.description, this.afterwards(row, subject, reference));
      const { verdict, kept } = acceptedVerdict(answer, head.description, this.rule(row, subject), this.redact);
      if (kept) this.keep(row, kept, reference);
      return verdict;
    });
  }

  /** The record a row is about: one an earlier case created, or a card payin made for it; why not, when there is none. */
  private async subjectFor(row: ServerCase): Promise<Subject | null | string> {
    if (row.needs === 'card-payin') return this.cardPayin(row.reference ?? row.name);
    if (!row.needs) return null;
    return this.kept.get(row.needs) ?? 'the create it looks up was not accepted';
  }

  /** A new payin paid by card, and the address its create answered for the card push (under --card-proxy-url). */
  private async cardPayin(label: string): Promise<Subject | string> {
    const reference = this.reference(label);
    try {
      const a = await this.http(signedPost(this, this.url.payins, json(this.bodies.payin(reference, { method: 'card' }))));
      const b = jsonOf(a);
      const next = b?.['next_action'] as { url?: unknown } | undefined;
      if (!is2xx(a.status) || typeof b?.['id'] !== 'string') return `the card payin's create got HTTP ${a.status}`;
      if (typeof next?.url !== 'string' || !next.url.startsWith(`${this.proxy}/`)) {
        return `the card payin's next_action.url (${JSON.stringify(next?.url)}) is not an address under --card-proxy-url ${this.proxy}`;
      }
      return { id: b['id'], reference, push: next.url };
    } catch (e) {
      return `the card payin's create failed: ${(e as Error).message}`;
    }
  }

  /** What an accepted row's answer must be. */
  private rule(row: ServerCase, subject: Subject | null): AnswerRule {
    const check = row.answer?.check;
    return {
      ...(check === 'has-id' ? { check: hasId } : {}),
      ...(check === 'echoes-id' ? { check: echoes('id', subject!.id) } : {}),
      ...(check === 'echoes-reference' ? { check: echoes('reference_id', subject!.reference) } : {}),
      ...(row.answer?.schema ? { schema: row.answer.schema } : {}),
    };
  }

  /** Keeps what an accepted row made or showed, for the rows after it. */
  private keep(row: ServerCase, body: Record<string, unknown>, reference: string): void {
    if (row.keeps && typeof body['id'] === 'string') this.kept.set(row.keeps, { id: body['id'], reference });
    if (row.name === LOOKUP_BY_REFERENCE) this.lookupsWork = true;
  }

  /** The check of what a refused row must not have changed, when it has one. */
  private afterwards(row: ServerCase, subject: Subject | null, reference: string): (() => Promise<Afterwards>) | undefined {
    if (row.unchanged === 'nothing-stored') {
      const lookup = row.to === 'payouts' ? this.url.payoutByRef : this.url.payinByRef;
      return async () => {
        if (!this.lookupsWork) return UNCHECKED;
        const a = await this.http(signedGet(this, lookup(reference)));
        return is2xx(a.status) ? `a lookup by its reference_id finds it (HTTP ${a.status}): the refused create was stored` : null;
      };
    }
    if (row.unchanged === 'payin-status') {
      return async () => {
        const a = await this.http(signedGet(this, this.url.payin(subject!.id)));
        const status = jsonOf(a)?.['status'];
        return is2xx(a.status) && status !== FIRST_STATUS ? `the payin's status became ${JSON.stringify(status)}` : null;
      };
    }
    return undefined;
  }
}
