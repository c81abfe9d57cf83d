// Argument checks at the boundary, shared by both clocks so a mistake reads the same on either.
import type { SleepOptions, WaitOptions } from './clock.js';

function duration(ms: unknown, where: string): void {
  if (typeof ms !== 'number' || Number.isNaN(ms)) throw new TypeError(`${where}: ms must be a number of milliseconds`);
}

function waitOptions(options: unknown, where: string): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) throw new TypeError(`${where}: options must be an object`);
  const o = options as Record<string, unknown>;
  for (const flag of ['unref', 'loop']) {
    if (o[flag] !== undefined && typeof o[flag] !== 'boolean') throw new TypeError(`${where}: options.${flag} must be a boolean`);
  }
}

/** Checks sleep's arguments. */
export function sleepArguments(ms: unknown, options: SleepOptions | undefined): void {
  duration(ms, 'sleep');
  waitOptions(options, 'sleep');
  const signal = options?.signal;
  if (signal !== undefined && !(typeof signal === 'object' && signal !== null && typeof signal.addEventListener === 'function')) {
    throw new TypeError('sleep: options.signal must be an AbortSignal');
  }
}

/** Checks alarm's arguments. */
export function alarmArguments(ms: unknown, fire: unknown, options: WaitOptions | undefined): void {
  duration(ms, 'alarm');
  if (typeof fire !== 'function') throw new TypeError('alarm: fire must be a function');
  waitOptions(options, 'alarm');
}
