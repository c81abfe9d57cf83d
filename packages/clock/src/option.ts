// The `clock` option every package takes, checked the same way everywhere.
import type { Clock } from './clock.js';
import { systemClock } from './system-clock.js';

const METHODS = ['now', 'sleep', 'alarm', 'track'] as const;

/**
 * The clock a package was given as its option `name`, or the real clock when none was.
 * @throws TypeError naming the option and the missing method for something that is not a Clock.
 */
export function clockOption(value: unknown, name = 'clock'): Clock {
  if (value === undefined) return systemClock;
  if (typeof value !== 'object' || value === null)
    throw new TypeError(`${name} must be a Clock (an object with now, sleep, alarm and track)`);
  for (const method of METHODS) {
    if (typeof (value as Record<string, unknown>)[method] !== 'function') {
      throw new TypeError(`${name}.${method} must be a function (a Clock has now, sleep, alarm and track)`);
    }
  }
  return value as Clock;
}
