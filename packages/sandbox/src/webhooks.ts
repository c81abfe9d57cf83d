// Webhook delivery: one delivery per status change, signed over the exact target URL, attempted at
// once, retried at once, then 15 min, 30 min and 1 h after the previous attempt (five attempts at
// most), stopping at the first 2xx. Every attempt, sent or still due, is kept in the log.
import { signRequest } from '@pay/sign';
import type { Merchant } from './merchants.js';
import { serviceDateTime, type Transaction } from './records.js';
import type { Schedule } from './schedule.js';

/** Delay before each retry, in ms, indexed by the number of the attempt that failed (1-based). */
export const RETRY_DELAYS_MS: readonly number[] = [0, 15 * 60_000, 30 * 60_000, 60 * 60_000];
/** Attempts per delivery at most. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An attempt that has no answer after this long is a failure. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Sends one webhook attempt: POST `body` with `headers` to `url`, never following a redirect,
 * giving up after `timeoutMs`. Resolves with the answer's HTTP status; rejects when there is none
 * (see describeFailure). `signal` aborts when the sandbox is reset or closed; a sender may instead
 * drop its connections when closed.
 */
export type WebhookSender = (url: string, attempt: { headers: Record<string, string>; body: string; signal: AbortSignal; timeoutMs: number }) => Promise<number>;

/** The web-standard sender: `fetch`. */
export const fetchSender: WebhookSender = async (url, { headers, body, signal, timeoutMs }) => {
  const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
  await response.body?.cancel().catch(() => {});
  return response.status;
};

/** One attempt in the delivery log, as `GET /_sandbox/deliveries` shows it. */
export interface DeliveryAttempt {
  transaction_id: string;
  /** The status the webhook announces. */
  status: string;
  url: string;
  attempt: number;
  due_at: string;
  /** Null while the attempt is still due. */
  sent_at: string | null;
  /** The receiver's HTTP status; null when it did not answer (or the attempt is still due). */
  response_status: number | null;
  /** Why the attempt failed without an answer (timeout, connection refused...); null otherwise. */
  error: string | null;
}

interface Attempt {
  transactionId: string;
  status: string;
  url: string;
  attempt: number;
  dueAt: number;
  sentAt: number | null;
  responseStatus: number | null;
  error: string | null;
}

interface Delivery {
  merchant: Merchant;
  transactionId: string;
  status: string;
  url: string;
  body: string;
}

/** The delivery log and the sender. */
export class Deliveries {
  #log: Attempt[] = [];
  // The same attempts by transaction, for the dashboard and `?transaction_id=`.
  #byTransaction = new Map<string, Attempt[]>();
  readonly #schedule: Schedule;
  readonly #changed: () => void;
  readonly #logLine: ((line: string) => void) | undefined;
  readonly #send: WebhookSender;

  constructor(schedule: Schedule, changed: () => void, log: ((line: string) => void) | undefined, send: WebhookSender) {
    this.#send = send;
    this.#schedule = schedule;
    this.#changed = changed;
    this.#logLine = log;
  }

  /**
   * Starts the delivery of a transaction's current status: to the merchant's static address if
   * set, else the transaction's `webhook_url`; nothing when it has neither (a legacy payin).
   */
  send(merchant: Merchant, tx: Transaction): void {
    const url = merchant.webhookUrl ?? tx.webhookUrl;
    if (url === null || url === undefined) return;
    // The interface's payload: id, reference_id and status, serialised once.
    const body = JSON.stringify({ id: tx.id, reference_id: tx.referenceId, status: tx.status });
    this.#plan({ merchant, transactionId: tx.id, status: tx.status, url, body }, 1, this.#schedule.now());
  }

  /** Every attempt, in the order they were planned. */
  list(transactionId?: string): DeliveryAttempt[] {
    const attempts = transactionId === undefined ? this.#log : (this.#byTransaction.get(transactionId) ?? []);
    return attempts.map((a) => ({
        transaction_id: a.transactionId,
        status: a.status,
        url: a.url,
        attempt: a.attempt,
        due_at: serviceDateTime(a.dueAt),
        sent_at: a.sentAt === null ? null : serviceDateTime(a.sentAt),
        response_status: a.responseStatus,
        error: a.error,
      }));
  }

  clear(): void {
    this.#log = [];
    this.#byTransaction = new Map();
  }


  #plan(delivery: Delivery, attempt: number, dueAt: number): void {
    const record: Attempt = {
      transactionId: delivery.transactionId,
      status: delivery.status,
      url: delivery.url,
      attempt,
      dueAt,
      sentAt: null,
      responseStatus: null,
      error: null,
    };
    this.#log.push(record);
    const mine = this.#byTransaction.get(record.transactionId);
    if (mine === undefined) this.#byTransaction.set(record.transactionId, [record]);
    else mine.push(record);
    const signal = this.#schedule.signal;
    this.#schedule.at(dueAt, () => this.#attempt(delivery, record, signal));
    this.#changed();
  }

  async #attempt(delivery: Delivery, record: Attempt, generation: AbortSignal): Promise<void> {
    if (generation.aborted) return;
    record.sentAt = this.#schedule.now();
    this.#changed();
    // Signed when sent, with the wall clock, so every attempt is fresh for the receiver.
    const headers = {
      'content-type': 'application/json',
      ...signRequest({ merchantId: delivery.merchant.id, secret: delivery.merchant.secret, method: 'POST', url: delivery.url, body: delivery.body }),
    };
    // The outcome is written to the log only once complete, together with the next attempt, so
    // no reader ever sees a failed attempt without its follow-up.
    let status: number | null = null;
    let failure: string | null = null;
    try {
      status = await this.#send(delivery.url, { headers, body: delivery.body, signal: generation, timeoutMs: DELIVERY_TIMEOUT_MS });
    } catch (error) {
      failure = describeFailure(error);
    }
    const delivered = status !== null && status >= 200 && status < 300;
    if (generation.aborted) return;
    record.responseStatus = status;
    record.error = failure;
    const next = record.attempt < MAX_ATTEMPTS && !delivered ? record.attempt + 1 : null;
    const nextDue = next === null ? null : this.#schedule.now() + RETRY_DELAYS_MS[record.attempt - 1]!;
    this.#logLine?.(
      `webhook ${delivery.transactionId} ${delivery.status} attempt ${record.attempt} -> ${redactUrl(delivery.url)} ` +
        `${record.responseStatus ?? record.error}` +
        (delivered ? '' : next === null ? ' (gave up)' : ` (next attempt ${next} at ${serviceDateTime(nextDue!)})`),
    );
    if (next === null) this.#changed();
    else this.#plan(delivery, next, nextDue!);
  }
}

/** A short reason for an attempt that got no answer; never the body or a header. */
export function describeFailure(error: unknown): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string; name?: string; message?: string } } | null;
  // fetch puts the system error in `cause`; undici's request API throws it directly.
  const code = e?.cause?.code ?? e?.code;
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `timeout after ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return 'connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (typeof code === 'string') return code;
  if (e?.cause?.message === 'bad port') return 'port blocked by fetch (bad port)';
  if (e?.name === 'AbortError') return 'aborted';
  return 'request failed';
}

/** A URL for logs: credentials in it, if any, are replaced. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/)[^/@?#]*@/i, '$1***@');
}
