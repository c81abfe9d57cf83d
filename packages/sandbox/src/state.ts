// Everything the sandbox holds in memory, and the one way a transaction changes status.
import { FIRST_STATUS, isTerminalStatus } from '@pay/schema';
import { DEFAULT_DECLINE } from './decline.js';
import type { Deliveries } from './deliveries.js';
import { HintBudget } from './diagnose.js';
import { Faults } from './faults.js';
import { RequestLog } from './request-log.js';
import type { Merchant } from './merchants.js';
import type { Names } from './names.js';
import { executesAt, feeOf, MAX_HISTORY_KEPT, type Cause, type Transaction } from './records.js';
import type { Schedule } from './schedule.js';

/** The sandbox's memory: merchants, transactions and their indexes, the clock, deliveries, faults. */
export class State {
  readonly merchants: ReadonlyMap<string, Merchant>;
  readonly transactions = new Map<string, Transaction>();
  /** `merchant \0 kind \0 reference_id` → transaction id. */
  readonly references = new Map<string, string>();
  /** Card push token → payin id. */
  readonly tokens = new Map<string, string>();
  readonly faults = new Faults();
  /** Every request to a service endpoint, the newest kept. */
  readonly requests = new RequestLog();
  /** How many signature diagnoses may still run this second. */
  readonly hints = new HintBudget();
  /** The ports the sandbox has been reached on (what counts as itself, with its names); a few at most. */
  readonly ports = new Set<number>();
  // Where the oldest transaction is: one iterator kept over `transactions` (insertion order), which
  // moves past each one forgotten. A fresh `values().next()` per eviction would step over every
  // entry deleted so far that the Map has not compacted away yet: thousands, at the cap.
  #oldest: Iterator<Transaction> = this.transactions.values();
  #version = 0;
  readonly #listeners = new Set<(version: number) => void>();
  readonly #closing = new Set<() => void>();

  constructor(
    merchants: readonly Merchant[],
    readonly schedule: Schedule,
    readonly deliveries: Deliveries,
    readonly toleranceSeconds: number,
    /** Transactions kept at most; the oldest is forgotten to make room for a new one. */
    readonly maxTransactions: number,
    /** The names the sandbox answers under. */
    readonly names: Names,
    /**
     * Whether a create with a `reference_id` already used is refused (409, the default). When
     * false, it makes a new transaction, and lookups by reference find the first one still kept.
     */
    readonly uniqueReferences = true,
  ) {
    this.merchants = new Map(merchants.map((m) => [m.id, m]));
  }

  /** Increases with every change; the dashboard refreshes on it. */
  get version(): number {
    return this.#version;
  }

  /** Tells listeners that something changed. */
  changed(): void {
    this.#version++;
    for (const listener of this.#listeners) listener(this.#version);
  }

  /** Listens for changes; returns the function that stops listening. */
  listen(listener: (version: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs `fn` when the sandbox closes (open event streams end); returns the function that cancels it. */
  onClose(fn: () => void): () => void {
    this.#closing.add(fn);
    return () => this.#closing.delete(fn);
  }

  /** Stops the clock and deliveries, and ends open event streams. */
  close(): void {
    this.schedule.close();
    for (const fn of [...this.#closing]) fn();
    this.#closing.clear();
  }

  referenceKey(merchantId: string, kind: Transaction['kind'], referenceId: string): string {
    return `${merchantId}\u0000${kind}\u0000${referenceId}`;
  }

  /**
   * Stores a new transaction, sends its first webhook (`new`) and plans expiry and payout
   * execution. At the cap, the oldest transaction is forgotten first. `cause`: what created it.
   */
  commit(tx: Transaction, cause: Cause): void {
    this.#note(tx, 'status', tx.createdAt, cause);
    this.#store(tx);
    this.deliveries.send(this.merchants.get(tx.merchantId)!, tx);
    this.changed();
  }

  /** Stores a transaction of a saved state, and plans what the clock still has to do for it; sends nothing. */
  restore(tx: Transaction): void {
    this.#store(tx);
  }

  #store(tx: Transaction): void {
    while (this.transactions.size >= this.maxTransactions) {
      const oldest = this.#oldest.next();
      // Done only if it had reached the end before: the map is not empty here, so start again.
      if (oldest.done) this.#oldest = this.transactions.values();
      else this.forget(oldest.value);
    }
    this.transactions.set(tx.id, tx);
    if (tx.referenceId !== null) {
      const key = this.referenceKey(tx.merchantId, tx.kind, tx.referenceId);
      // The first transaction under a reference keeps it (a second exists only without uniqueReferences).
      if (!this.references.has(key)) this.references.set(key, tx.id);
    }
    if (tx.cardToken !== null) this.tokens.set(tx.cardToken, tx.id);
    if (tx.status !== FIRST_STATUS) return;
    this.schedule.at(tx.expiresAt, 'sandbox.expiry', () => this.#automatic(tx, 'expired'), tx.id);
    const executes = executesAt(tx);
    if (executes !== null) this.schedule.at(executes, 'sandbox.payout', () => this.#automatic(tx, 'executed'), tx.id);
  }

  /** A change the clock makes by itself, if the transaction is still kept and still new. */
  #automatic(tx: Transaction, status: string): void {
    if (tx.status === FIRST_STATUS && this.transactions.get(tx.id) === tx) this.transition(tx, status, 'clock');
  }

  /** Forgets a transaction: its record, indexes, delivery log and every job still due for it. */
  forget(tx: Transaction): void {
    this.transactions.delete(tx.id);
    if (tx.referenceId !== null) {
      const key = this.referenceKey(tx.merchantId, tx.kind, tx.referenceId);
      if (this.references.get(key) === tx.id) {
        this.references.delete(key);
        // Without uniqueReferences, the next one created under it (the oldest still kept) takes it.
        if (!this.uniqueReferences) {
          for (const other of this.transactions.values()) {
            if (other.referenceId === tx.referenceId && other.kind === tx.kind && other.merchantId === tx.merchantId) {
              this.references.set(key, other.id);
              break;
            }
          }
        }
      }
    }
    if (tx.cardToken !== null) this.tokens.delete(tx.cardToken);
    this.deliveries.forget(tx.id);
    this.schedule.cancel(tx.id);
  }

  /**
   * Moves a transaction to `status` (one webhook per change), noting what caused it. `failed`
   * carries an error code and message; `executed` sets the fee. The caller has checked the change
   * is allowed.
   */
  transition(tx: Transaction, status: string, cause: Cause, error?: { code: string; message: string }): void {
    tx.status = status;
    tx.updatedAt = this.schedule.now();
    this.#note(tx, 'status', tx.updatedAt, cause);
    if (status === 'failed') {
      tx.errorCode = error?.code ?? DEFAULT_DECLINE.code;
      tx.errorMessage = error?.message ?? DEFAULT_DECLINE.message;
    }
    if (status === 'executed') tx.fee = { amount: feeOf(tx.amountDigits, tx.currency), currency: tx.currency };
    this.deliveries.send(this.merchants.get(tx.merchantId)!, tx);
    this.changed();
  }

  /**
   * Sends a transaction's current status again (a new delivery, attempt 1), noting who asked. The
   * caller has checked that it has a webhook address.
   */
  resend(tx: Transaction, cause: Cause): void {
    this.#note(tx, 'resend', this.schedule.now(), cause);
    this.deliveries.send(this.merchants.get(tx.merchantId)!, tx);
    this.changed();
  }

  #note(tx: Transaction, what: 'status' | 'resend', at: number, cause: Cause): void {
    tx.history.push({ what, status: tx.status, at, cause, order: this.schedule.tick() });
    if (tx.history.length > MAX_HISTORY_KEPT) tx.history.shift();
  }

  /** Whether a transaction can still change status. */
  isOpen(tx: Transaction): boolean {
    return !isTerminalStatus(tx.status);
  }

  /** Forgets every transaction, delivery and fault, and puts the schedule clock back on the sandbox's clock (no offset). */
  reset(): void {
    this.transactions.clear();
    this.#oldest = this.transactions.values();
    this.references.clear();
    this.tokens.clear();
    this.faults.clear();
    this.requests.clear();
    this.hints.refill();
    this.schedule.reset();
    this.deliveries.clear();
    this.changed();
  }
}
