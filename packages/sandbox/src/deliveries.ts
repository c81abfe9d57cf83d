// Webhook delivery: one delivery per status change, signed over the exact target URL, attempted at
// once, retried at once, then 15 min, 30 min and 1 h after the previous attempt (five attempts at
// most), stopping at the first 2xx. Every attempt, sent or still due, is kept in the log.
import { signRequest } from '@pay/sign';
import type { Merchant } from './merchants.js';
import { serviceDateTime, type Transaction } from './records.js';
import { maskText } from './masking.js';
import { DELIVERY_TIMEOUT_MS, describeFailure } from './failure.js';
import type { Schedule } from './schedule.js';
import { unresolvableName } from './unresolvable.js';
import type { DeliveryAttempt } from './wire/deliveries.js';
import type { SnapshotAttempt } from './wire/snapshot.js';

/** Delay before each retry, in ms, indexed by the number of the attempt that failed (1-based). */
export const RETRY_DELAYS_MS: readonly number[] = [0, 15 * 60_000, 30 * 60_000, 60 * 60_000];
/** Attempts per delivery at most. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export { DELIVERY_TIMEOUT_MS, describeFailure } from './failure.js';

/**
 * Sends one webhook attempt: POST `body` with `headers` to `url`, never following a redirect,
 * giving up `timeoutMs` after it starts, from connecting to the answer's last byte (a receiver
 * that trickles its answer must not hold a delivery, or a clock advance waiting for it, forever). Resolves with the answer's HTTP status; rejects when there is none
 * (see describeFailure). `signal` aborts when the sandbox is reset or closed: the attempt stops at
 * once.
 */
export type WebhookSender = (
  url: string,
  attempt: { headers: Record<string, string>; body: string; signal: AbortSignal; timeoutMs: number },
) => Promise<number>;

/**
 * The web-standard sender: `fetch`, with one deadline over the whole attempt. The deadline is real
 * time whatever the sandbox's clock: it bounds one exchange's I/O, not when anything is due.
 */
export const fetchSender: WebhookSender = async (url, { headers, body, signal, timeoutMs }) => {
  // fetch would ask the resolver for a name that never resolves: fail it here, as the Node sender does.
  const unresolvable = unresolvableName(new URL(url).hostname);
  if (unresolvable !== undefined) throw unresolvable;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
  });
  await response.body?.cancel().catch(() => {}); // the answer's body is not read: the status is the answer
  return response.status;
};

export type { DeliveryAttempt } from './wire/deliveries.js';

/** One attempt as the sandbox keeps it (and a state file saves it): times in ms on the schedule clock. */
export type Attempt = SnapshotAttempt;

interface Delivery {
  id: number;
  merchant: Merchant;
  transactionId: string;
  status: string;
  url: string;
  body: string;
}

/** The interface's payload announcing `status`: id, reference_id and status, serialised once per delivery. */
function payload(tx: Transaction, status: string): string {
  return JSON.stringify({ id: tx.id, reference_id: tx.referenceId, status });
}

/** Attempts kept per transaction (the newest); a status changed over and over cannot grow the log without bound. */
export const MAX_ATTEMPTS_KEPT = 100;

/**
 * An attempt as kept in memory: `seq` orders attempts as planned; `order` is the schedule's tick
 * when it started (null while due, and for one loaded from a state file).
 */
type Kept = Attempt & { seq: number; order: number | null };

/** An attempt on a transaction's timeline. */
export interface TimelineAttempt {
  attempt: DeliveryAttempt;
  /** When it started among everything else of its millisecond (Schedule.tick); null while due or loaded from a state file. */
  order: number | null;
  /** When the next attempt of the same delivery is due: null when delivered, given up, or not yet answered. */
  nextDueAt: string | null;
}

/** The delivery log and the sender. */
export class Deliveries {
  // Attempts by transaction, each in the order planned; `seq` orders them across transactions.
  #byTransaction = new Map<string, Kept[]>();
  #seq = 0;
  #deliveries = 0;
  readonly #schedule: Schedule;
  readonly #changed: () => void;
  // The core's one log writer: it masks every line (masking.ts), webhook URLs included.
  readonly #logLine: ((line: string) => void) | undefined;
  readonly #send: WebhookSender;
  readonly #refusal: (url: string) => string | undefined;

  constructor(options: {
    schedule: Schedule;
    changed: () => void;
    log: ((line: string) => void) | undefined;
    send: WebhookSender;
    /** Why a URL is never delivered to (the sandbox's own address...), or undefined. */
    refusal: (url: string) => string | undefined;
  }) {
    this.#send = options.send;
    this.#schedule = options.schedule;
    this.#changed = options.changed;
    this.#logLine = options.log;
    this.#refusal = options.refusal;
  }

  /**
   * Starts the delivery of a transaction's current status: to the merchant's static address if
   * set, else the transaction's `webhook_url`; nothing when it has neither (a legacy payin).
   */
  send(merchant: Merchant, tx: Transaction): void {
    const url = merchant.webhookUrl ?? tx.webhookUrl;
    if (url === null || url === undefined) return;
    const delivery = { id: ++this.#deliveries, merchant, transactionId: tx.id, status: tx.status, url, body: payload(tx, tx.status) };
    this.#plan(delivery, 1, this.#schedule.now());
  }

  /** Every attempt, in the order they were planned, with credentials and query values hidden. */
  list(transactionId?: string): DeliveryAttempt[] {
    const attempts =
      transactionId === undefined
        ? [...this.#byTransaction.values()].flat().sort((a, b) => a.seq - b.seq)
        : (this.#byTransaction.get(transactionId) ?? []);
    return attempts.map(shown);
  }

  /** A transaction's attempts, in the order planned, with what its timeline needs besides. */
  timeline(transactionId: string): TimelineAttempt[] {
    const attempts = this.#byTransaction.get(transactionId) ?? [];
    return attempts.map((a) => {
      const next = attempts.find((b) => b.delivery === a.delivery && b.attempt === a.attempt + 1);
      return { attempt: shown(a), order: a.order, nextDueAt: next === undefined ? null : serviceDateTime(next.dueAt) };
    });
  }

  /** Every attempt as kept, oldest planned first (for a state file). */
  saved(): Attempt[] {
    return [...this.#byTransaction.values()]
      .flat()
      .sort((a, b) => a.seq - b.seq)
      .map(({ seq: _seq, order: _order, ...attempt }) => attempt);
  }

  /**
   * Puts back the attempts of a saved state: finished ones as they were, and each unfinished one
   * planned again (at its due time, or at once if it was under way when the state was saved).
   * Attempts of a transaction or merchant the sandbox no longer has are dropped.
   */
  restore(attempts: readonly Attempt[], find: (transactionId: string) => { merchant: Merchant; tx: Transaction } | undefined): void {
    for (const saved of attempts) {
      const found = find(saved.transactionId);
      if (found === undefined) continue;
      this.#deliveries = Math.max(this.#deliveries, saved.delivery);
      const finished = saved.responseStatus !== null || saved.error !== null;
      if (finished) {
        const record = { ...saved, seq: ++this.#seq, order: null };
        const mine = this.#byTransaction.get(saved.transactionId);
        if (mine === undefined) this.#byTransaction.set(saved.transactionId, [record]);
        else mine.push(record);
        continue;
      }
      const { tx, merchant } = found;
      const due = saved.sentAt === null ? saved.dueAt : this.#schedule.now();
      this.#plan(
        { id: saved.delivery, merchant, transactionId: tx.id, status: saved.status, url: saved.url, body: payload(tx, saved.status) },
        saved.attempt,
        due,
      );
    }
  }

  /** Forgets a transaction's attempts; its attempts still due are cancelled by the caller (schedule). */
  forget(transactionId: string): void {
    this.#byTransaction.delete(transactionId);
  }

  clear(): void {
    this.#byTransaction = new Map();
  }

  #plan(delivery: Delivery, attempt: number, dueAt: number): void {
    const record: Kept = {
      seq: ++this.#seq,
      order: null,
      transactionId: delivery.transactionId,
      delivery: delivery.id,
      status: delivery.status,
      url: delivery.url,
      attempt,
      dueAt,
      sentAt: null,
      responseStatus: null,
      error: null,
    };
    const mine = this.#byTransaction.get(record.transactionId);
    if (mine === undefined) this.#byTransaction.set(record.transactionId, [record]);
    else {
      mine.push(record);
      if (mine.length > MAX_ATTEMPTS_KEPT) mine.shift();
    }
    const signal = this.#schedule.signal;
    this.#schedule.at(dueAt, 'sandbox.webhook', () => this.#attempt(delivery, record, signal), delivery.transactionId);
    this.#changed();
  }

  async #attempt(delivery: Delivery, record: Kept, generation: AbortSignal): Promise<void> {
    if (generation.aborted) return;
    record.sentAt = this.#schedule.now();
    record.order = this.#schedule.tick();
    const refusal = this.#refusal(delivery.url);
    if (refusal !== undefined) {
      // From 127.0.0.1 with the service's signature, a webhook to the sandbox itself could reset
      // it or pay a payin on a hosted page; one to another loopback service, while anyone outside
      // can create transactions, would let them reach it. Refused at create, and here for static
      // addresses and saved ones.
      record.error = `refused: ${refusal}`.slice(0, 255);
      this.#logLine?.(`webhook ${delivery.transactionId} ${delivery.status} -> ${delivery.url} refused: ${refusal}`);
      this.#changed();
      return;
    }
    this.#changed();
    // Signed when sent, by the sandbox's clock (the clock without the schedule's offset: the wall
    // clock unless one was given), so every attempt is fresh for a receiver on the same clock.
    const signed = signRequest({
      timestamp: Math.floor(this.#schedule.clock.now() / 1000),
      merchantId: delivery.merchant.id,
      secret: delivery.merchant.secret,
      method: 'POST',
      url: delivery.url,
      body: delivery.body,
    });
    // Written out rather than spread: a spread copies through V8's slow path.
    const headers = {
      'content-type': 'application/json',
      'x-merchant-id': signed['x-merchant-id'],
      'x-timestamp': signed['x-timestamp'],
      'x-signature': signed['x-signature'],
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
      `webhook ${delivery.transactionId} ${delivery.status} attempt ${record.attempt} -> ${delivery.url} ` +
        `${record.responseStatus ?? record.error}` +
        (delivered ? '' : next === null ? ' (gave up)' : ` (next attempt ${next} at ${serviceDateTime(nextDue!)})`),
    );
    if (next === null || !this.#byTransaction.has(delivery.transactionId)) this.#changed();
    else this.#plan(delivery, next, nextDue!);
  }
}

/** An attempt as the admin API shows it: times as the service writes them, credentials and tokens hidden. */
function shown(a: Attempt): DeliveryAttempt {
  return {
    transaction_id: a.transactionId,
    status: a.status,
    url: maskText(a.url),
    attempt: a.attempt,
    due_at: serviceDateTime(a.dueAt),
    sent_at: a.sentAt === null ? null : serviceDateTime(a.sentAt),
    response_status: a.responseStatus,
    error: a.error,
  };
}
