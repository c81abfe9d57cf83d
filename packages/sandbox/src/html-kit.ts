// What every page of the sandbox writes values with: escaping (every value from a request is
// escaped, and text a merchant wrote sits in <bdi> so a direction override in it cannot reorder
// the rest of the page), times labelled with the clock they are on, paths, identifiers and
// amounts. No secret and no card data beyond the last four digits is ever written into a page.
import { systemClock } from '@pay/clock';
import { formatAmount } from './format.js';
import { formatTime } from './format-time.js';
import type { State } from './state.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text escaped for HTML content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Text someone else wrote: escaped, and isolated so its direction marks end with it. */
export function foreign(value: unknown): string {
  return `<bdi>${escapeHtml(value)}</bdi>`;
}

/**
 * The clock a time is on. The pages show two, which part after an advance: the schedule clock
 * (records, webhook attempts, timelines; it runs with the sandbox's clock and `advance` moves it
 * forward) and the sandbox's own clock, when a request arrived (the wall clock unless a test gave
 * the sandbox a clock of its own).
 */
export interface ClockName {
  key: 'schedule' | 'wall' | 'sandbox';
  /** As a label says it: `schedule clock`. */
  name: string;
}

/** The schedule clock. */
export const SCHEDULE_CLOCK: ClockName = { key: 'schedule', name: 'schedule clock' };

/** The clock requests arrive on: the wall clock, unless the sandbox was given a clock of its own. */
export function arrivalClock(state: State): ClockName {
  return state.schedule.clock === systemClock ? { key: 'wall', name: 'wall clock' } : { key: 'sandbox', name: "sandbox's clock" };
}

/** A clock's name as a label beside a heading or a time: `<small class="clock-name">schedule clock</small>`. */
export function clockLabel(clock: ClockName): string {
  return `<small class="clock-name">${escapeHtml(clock.name)}</small>`;
}

/**
 * A time as people read it (`2026-11-23 20:24:49 UTC`), with the full ISO value and the clock it is
 * on in the markup (`data-clock`, and the tooltip).
 */
export function timeHtml(ms: number, clock: ClockName, id = ''): string {
  const shown = formatTime(ms);
  if (shown === '') return '';
  const iso = new Date(ms).toISOString();
  return `<time${id ? ` id="${escapeHtml(id)}"` : ''} datetime="${iso}" title="${iso}, ${escapeHtml(clock.name)}" data-clock="${clock.key}">${shown}</time>`;
}

/** A path or URL, with a line break allowed after each `/`, `?` and `&` (`<wbr>`), before any other. */
export function pathHtml(path: string): string {
  return `<bdi>${escapeHtml(path).replace(/([/?]|&amp;)(?=.)/g, '$1<wbr>')}</bdi>`;
}

/** An id, a reference or an e-mail address: read and copied whole, never broken mid-word on a wide screen. */
export function identHtml(value: unknown): string {
  return `<span class="ident">${foreign(value)}</span>`;
}

/** An amount with its currency's decimals, never broken across lines. */
export function amountHtml(amount: number | string, currency: string): string {
  return `<span class="amount">${escapeHtml(formatAmount(amount, currency))}</span>`;
}

/** A number of seconds as people say it: `45 s`, `12 min`, `2 h 5 min`. */
export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A status as a badge (its color from its name). */
export function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status)}">${escapeHtml(status)}</span>`;
}
