// Durations as people type them for `pay-sandbox advance`: `90` (seconds), `90s`, `15m`, `1h30m`,
// `1.5h`, `2d`.

const SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const WHOLE = /^(?:\d{1,9}(?:\.\d{1,6})?[smhd])+$|^\d{1,12}(?:\.\d{1,6})?$/;
const PART = /(\d+(?:\.\d+)?)([smhd])/g;

/** A duration in seconds; undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  if (!WHOLE.test(text)) return undefined;
  if (/^[\d.]+$/.test(text)) return Number(text);
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(PART)) seconds += Number(amount) * SECONDS[unit as keyof typeof SECONDS];
  return seconds;
}
