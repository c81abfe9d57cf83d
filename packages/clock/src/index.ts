export type { Clock, SleepOptions, WaitOptions } from './clock.js';
export { type Duration, durationMs } from './duration.js';
export { clockOption } from './option.js';
export { systemClock } from './system-clock.js';
