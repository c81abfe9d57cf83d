// What every part of a journal shares once it is open: the guarded database, the names, the
// client, the handler, the clock, this instance's id (the owner of the leases it takes) and the settings.
import type { Client } from '@pay/client';
import type { Clock } from '@pay/clock';
import type { EventHandler } from './handler.js';
import type { Guarded } from './guard.js';
import type { Names } from './names.js';
import type { Reporter } from './reporter.js';

/** An open journal's shared parts. */
export interface Context {
  readonly db: Guarded;
  readonly names: Names;
  readonly client: Client;
  readonly handler: EventHandler | undefined;
  /**
   * Where every time the journal decides by comes from: the times it writes (passed to each
   * statement, never the database's `now()`), its leases, the reconciler's schedule and waits.
   */
  readonly clock: Clock;
  /** This instance: the owner written on the leases it takes. */
  readonly owner: string;
  /** How long an intent stays in flight before recover() may decide it, ms. */
  readonly inFlightLeaseMs: number;
  /** How long a queued create is left to the process that enqueued it before recover() sends it, ms. */
  readonly sendQueuedAfterMs: number;
  /** How long recover() holds an intent it is deciding, ms. */
  readonly recoveryLeaseMs: number;
  /** Where reports of what the journal did go (after each commit). */
  readonly report: Reporter;
  /** On PGlite: no autovacuum runs there, so the reconciler vacuums the journal's tables (reconciler/upkeep.ts). */
  readonly embedded: boolean;
}
