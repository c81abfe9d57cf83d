// The reconciler's options, read once into settings: every default applied, every value checked
// by the journal's one options reader (options.ts). Each option's default is written once, below,
// where the option is declared. Its time is the journal's clock (openJournal's `clock`).
import { optionsObject, rateOption, wholeOption } from '../options.js';

const MINUTE = 60_000;

/** Options of `journal.reconciler()`. Every duration is in milliseconds. */
export interface ReconcilerOptions {
  /**
   * The first lookup of a transaction, this long after its first status was recorded (default
   * 15 min: most changes arrive by webhook well before).
   */
  firstCheckMs?: number | undefined;
  /**
   * The longest wait between two lookups of one transaction (default 2 h). Waits double from
   * `firstCheckMs` up to this: with the defaults, lookups at 15 min, 45 min, 1 h 45 min, then
   * every 2 h, so a change whose webhooks all failed is found within 2 h of the change.
   */
  maxIntervalMs?: number | undefined;
  /** Age (since the first status) after which a transaction is no longer looked up (default 7 days). */
  giveUpMs?: number | undefined;
  /** Lookups per second of this instance, at most (default 5). */
  lookupsPerSecond?: number | undefined;
  /** How often `start()` runs a pass (default 60 000). */
  everyMs?: number | undefined;
  /** Rows claimed at a time, in one short transaction: all a pass holds at once (default 10). */
  batch?: number | undefined;
}

/** The options as a pass and the loop use them. Every duration is in milliseconds. */
export interface ReconcilerSettings {
  readonly firstCheckMs: number;
  readonly maxIntervalMs: number;
  readonly giveUpMs: number;
  readonly everyMs: number;
  readonly batch: number;
  /** The least time between two lookups of this instance (from `lookupsPerSecond`). */
  readonly gapMs: number;
}

/**
 * The settings of `options`.
 *
 * @throws TypeError naming the first unusable option.
 */
export function readReconcilerOptions(given: ReconcilerOptions | undefined): ReconcilerSettings {
  const options = optionsObject(given, 'reconciler');
  // The reconciler's own clock before the journal had one: said plainly rather than ignored.
  if ('now' in options) throw new TypeError("now is not an option of the reconciler: it runs on the journal's clock (openJournal's clock)");
  return {
    firstCheckMs: wholeOption(options.firstCheckMs, 'firstCheckMs', 15 * MINUTE),
    maxIntervalMs: wholeOption(options.maxIntervalMs, 'maxIntervalMs', 120 * MINUTE),
    giveUpMs: wholeOption(options.giveUpMs, 'giveUpMs', 7 * 24 * 60 * MINUTE),
    everyMs: wholeOption(options.everyMs, 'everyMs', MINUTE),
    batch: wholeOption(options.batch, 'batch', 10, { max: 1000 }),
    gapMs: 1000 / rateOption(options.lookupsPerSecond, 'lookupsPerSecond', 5, 1000),
  };
}
