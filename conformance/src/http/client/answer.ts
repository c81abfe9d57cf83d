// What an SDK answered a client command, read (the record, an error of a named kind, or outcome
// unknown) and judged against what the case expects and what the service actually sent it.
import type { Exchange } from './proxy.js';
import { sameDecimal } from './body.js';
import { offsetMinutes } from './zone.js';
import { CLIENT_ERROR_KINDS, type ClientErrorKind } from '../../types.js';

/** An SDK's answer to a client command, in its own terms. */
export type ClientAnswer =
  | { outcome: 'ok'; record: Record<string, unknown> | null }
  | { outcome: 'error'; kind: ClientErrorKind; status: number | null; code: string | null; paths: string[]; message: string | null }
  /** referenceId: the create's (given, or made by the SDK); null when the SDK sent none */
  | { outcome: 'unknown'; referenceId: string | null };

/** What a case expects the SDK to answer. */
export type Expected =
  | {
      outcome: 'ok';
      /** outcome unknown is also right (the SDK may run out of time to prove a create dead) */
      orUnknown?: boolean;
      /** a timeout error is also right (an attempt ran out of time, and the SDK need not try again) */
      orTimeout?: boolean;
    }
  | {
      outcome: 'error';
      kind: ClientErrorKind;
      status?: number;
      code?: string;
      paths?: string[];
      /** an error of this kind (and status) is also right: the service's refusal, where the SDK may refuse first */
      or?: { kind: ClientErrorKind; status: number };
    }
  /** outcome unknown only: the create's outcome could not be known within total_timeout_ms */
  | { outcome: 'unknown' };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Reads an answer line; a string says why it is not a client answer. */
export function readAnswer(value: Record<string, unknown>): ClientAnswer | string {
  switch (value['outcome']) {
    case 'ok': {
      const record = value['record'];
      if (record !== null && (typeof record !== 'object' || Array.isArray(record))) return '"record" must be an object or null';
      return { outcome: 'ok', record: record as Record<string, unknown> | null };
    }
    case 'error': {
      // Flat, beside "outcome": the protocol's own "error" field means the command itself failed.
      const kind = value['kind'];
      if (!(CLIENT_ERROR_KINDS as readonly unknown[]).includes(kind))
        return `"kind" must be one of ${CLIENT_ERROR_KINDS.join(', ')} (got ${JSON.stringify(kind)})`;
      const paths = Array.isArray(value['paths']) ? (value['paths'] as unknown[]).filter((p): p is string => typeof p === 'string') : [];
      const status = typeof value['status'] === 'number' ? value['status'] : null;
      return { outcome: 'error', kind: kind as ClientErrorKind, status, code: str(value['code']), paths, message: str(value['message']) };
    }
    case 'unknown': {
      // null when the create carried no reference_id (none given, none made by the SDK).
      const ref = value['reference_id'];
      return ref === null || typeof ref === 'string'
        ? { outcome: 'unknown', referenceId: ref }
        : '"reference_id" must be a string (or null, when the create sent none) when the outcome is unknown';
    }
    default:
      return `"outcome" must be "ok", "error" or "unknown" (got ${JSON.stringify(value['outcome'])})`;
  }
}

/** The answer in a few words, for reports: never the record's personal data. */
export function gotOf(a: ClientAnswer): Record<string, unknown> {
  if (a.outcome === 'ok') return { outcome: 'ok', id: a.record?.['id'] ?? null, status: a.record?.['status'] ?? null };
  if (a.outcome === 'error')
    return { outcome: 'error', kind: a.kind, status: a.status, code: a.code, ...(a.paths.length ? { paths: a.paths } : {}) };
  return { outcome: 'unknown', reference_id: a.referenceId };
}

/** A finding about the answer: a mistake name and what it is. */
export interface AnswerFinding {
  mistake: string;
  text: string;
}

const describe = (e: Expected): string =>
  e.outcome === 'ok'
    ? 'the record'
    : e.outcome === 'unknown'
      ? 'outcome unknown'
      : `an error of kind ${e.kind}${e.status ? ` (status ${e.status}${e.code ? `, code ${e.code}` : ''})` : e.code ? ` (code ${e.code})` : ''}${e.or ? ` or of kind ${e.or.kind} (status ${e.or.status})` : ''}`;

/** What the service last sent the SDK as a record (a 2xx JSON answer), for comparing with the SDK's reading. */
function lastRecordSent(log: readonly Exchange[]): Record<string, unknown> | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const ex = log[i]!;
    if (ex.delivered?.kind !== 'answer' || ex.delivered.status < 200 || ex.delivered.status > 299 || !ex.deliveredBody) continue;
    try {
      const v = JSON.parse(ex.deliveredBody.toString('utf8')) as unknown;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // not a record: look further back
    }
  }
  return null;
}

/** A service datetime (no offset: UTC) as epoch milliseconds, its fraction truncated to milliseconds. */
function instant(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(text);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}.${(m[2] ?? '').padEnd(3, '0').slice(0, 3)}${m[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? null : ms;
}

/** What the answer is judged with besides the case: the hold of a timeout case, the child's time zone. */
export interface AnswerContext {
  /** how long the proxy held the answer, in a case that expects a timeout */
  heldMs?: number | undefined;
  /** the TZ the child runs in */
  zone: string;
}

/** Where the SDK's record differs from the one the service sent; null when it read it right. */
function recordProblem(got: Record<string, unknown>, sent: Record<string, unknown>, zone: string): AnswerFinding | null {
  const misread = (text: string): AnswerFinding => ({
    mistake: 'record_misread',
    text: `the record answered is not the one the service sent: ${text}`,
  });
  const p = fieldProblem(got, sent);
  if (p) return misread(p);
  for (const k of ['created_at', 'updated_at', 'expires_at'] as const) {
    const want = instant(sent[k]);
    const have = instant(got[k]);
    if (want === null || have === want) continue;
    if (have !== null && have - want === -offsetMinutes(zone, want) * 60_000) {
      return {
        mistake: 'datetime_read_as_local',
        text: `its ${k} is ${JSON.stringify(got[k])}; the service sent ${JSON.stringify(sent[k])}, a UTC datetime (no offset means UTC): the SDK read it as local time (the child runs with TZ=${zone})`,
      };
    }
    return misread(
      `its ${k} is ${JSON.stringify(got[k])}; the service sent ${JSON.stringify(sent[k])} (a UTC datetime; answer it as ISO 8601 with "Z")`,
    );
  }
  return null;
}

/** Where the SDK's record's id, reference, status and payment differ from the one the service sent. */
function fieldProblem(got: Record<string, unknown>, sent: Record<string, unknown>): string | null {
  for (const k of ['id', 'reference_id', 'status'] as const) {
    if (got[k] !== sent[k]) return `its ${k} is ${JSON.stringify(got[k])}; the service sent ${JSON.stringify(sent[k])}`;
  }
  const gp = (got['payment'] ?? {}) as Record<string, unknown>;
  const sp = (sent['payment'] ?? {}) as Record<string, unknown>;
  if (gp['currency'] !== sp['currency'])
    return `its payment.currency is ${JSON.stringify(gp['currency'])}; the service sent ${JSON.stringify(sp['currency'])}`;
  if (typeof gp['amount'] !== 'string' || !sameDecimal(gp['amount'], String(sp['amount']))) {
    return `its payment.amount is ${JSON.stringify(gp['amount'])}; the service sent ${JSON.stringify(sp['amount'])} (answer it as a decimal string)`;
  }
  return null;
}

/** Whether the answer is the one expected: null, or what is wrong, named. */
export function judgeAnswer(a: ClientAnswer, e: Expected, log: readonly Exchange[], ctx: AnswerContext): AnswerFinding | null {
  if (e.outcome === 'unknown') {
    if (a.outcome === 'unknown') return null;
    const what = a.outcome === 'error' ? `an error of kind ${a.kind}${a.status ? ` (status ${a.status})` : ''}` : 'the record';
    return {
      mistake: 'wrong_outcome',
      text: `answered ${what}; the create's answer was lost and no lookup could tell whether it exists before total_timeout_ms ran out: outcome unknown, with its reference_id`,
    };
  }
  if (e.outcome === 'ok') {
    if (a.outcome === 'unknown' && e.orUnknown) return null;
    if (a.outcome === 'error' && a.kind === 'timeout' && e.orTimeout) return null;
    if (a.outcome !== 'ok') {
      const what = a.outcome === 'error' ? `an error of kind ${a.kind}${a.status ? ` (status ${a.status})` : ''}` : 'outcome unknown';
      // What the service sent decides the words: a record the SDK had to return, or (its request
      // refused, say) none, when the case expected one of a correct request.
      const last = [...log].reverse().find((ex) => ex.delivered?.kind === 'answer');
      const status = last?.delivered?.kind === 'answer' ? last.delivered.status : null;
      return {
        mistake: 'wrong_outcome',
        text: lastRecordSent(log)
          ? `answered ${what}; the service answered with the record, which it must return`
          : `answered ${what}; a correct request gets the record here, and the service sent none (${status === null ? 'no answer' : `its last answer: HTTP ${status}`}): see what was wrong with the requests`,
      };
    }
    const sent = lastRecordSent(log);
    if (a.record === null) return sent ? { mistake: 'record_misread', text: 'answered no record, though the service sent one' } : null;
    if (!sent) return null;
    return recordProblem(a.record, sent, ctx.zone);
  }
  if (e.kind === 'timeout' && !(a.outcome === 'error' && a.kind === 'timeout')) {
    const held = ctx.heldMs === undefined ? 'past its time limit' : `${ctx.heldMs} ms`;
    if (a.outcome === 'error' && a.kind === 'network')
      return {
        mistake: 'timeout_as_network',
        text: `answered a network error for an answer held ${held}, past timeout_ms: a time limit that runs out is a timeout, which the caller must tell from a connection that failed`,
      };
    if (a.outcome !== 'error' || a.kind !== 'api')
      return {
        mistake: 'timeout_not_enforced',
        text: `answered ${a.outcome === 'error' ? `an error of kind ${a.kind}` : a.outcome === 'ok' ? 'the record' : 'outcome unknown'} for an answer held ${held}: it waited for it, past timeout_ms; an attempt must end at its time limit, with a timeout error`,
      };
  }
  if (a.outcome !== 'error') {
    return {
      mistake: 'error_missed',
      text: `answered ${a.outcome === 'ok' ? 'success with a record' : 'outcome unknown'}; expected ${describe(e)}`,
    };
  }
  if (e.or && a.kind === e.or.kind && a.status === e.or.status) return null;
  if (a.kind !== e.kind || (e.status !== undefined && a.status !== e.status)) {
    return {
      mistake: 'error_kind_mismatch',
      text: `answered an error of kind ${a.kind}${a.status !== null ? ` (status ${a.status})` : ''}; expected ${describe(e)}`,
    };
  }
  if (e.code !== undefined && a.code !== e.code)
    return {
      mistake: 'error_code_lost',
      text: `the error's code is ${JSON.stringify(a.code)}; the service said ${JSON.stringify(e.code)}`,
    };
  const missing = (e.paths ?? []).filter((p) => !a.paths.includes(p));
  if (missing.length)
    return { mistake: 'error_paths_lost', text: `the error does not name the field paths the service listed: ${missing.join(', ')}` };
  return null;
}
