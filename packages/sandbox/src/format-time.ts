// How the sandbox writes a time for people: UTC, to the second, its zone spelled out. Its own file,
// with no imports, so a page of another program (the example shop) writes times exactly as the
// sandbox's pages do through `@pay/sandbox/admin` without loading anything else.

/**
 * A time for people, to the second, with its zone: `2026-11-23 20:24:49 UTC`; '' for no time (an
 * invalid date, or milliseconds outside what a Date holds).
 */
export function formatTime(ms: number): string {
  const at = new Date(ms);
  if (Number.isNaN(at.getTime())) return '';
  const [date, time] = at.toISOString().split('T');
  return `${date} ${time!.slice(0, 8)} UTC`;
}
