// How a pass count is coloured, in the badge and in every cell of the merged table: one rule, so
// a badge and the table it comes from never disagree.
//
//   green   every case passed (and there was at least one)
//   orange  some failed, but at least half passed
//   red     most failed: fewer than half passed
//   grey    no case at all (nothing to judge)
//
// Whole numbers only (2 × passed against total), so no rounding can move a count across a line.
// A skipped case counts in the total and not as a pass: a badge shows what was proven.

/** The four colours a pass count takes. */
export type Tone = 'green' | 'orange' | 'red' | 'grey';

/** The colour of `passed` out of `total`. */
export function toneOf(passed: number, total: number): Tone {
  if (total === 0) return 'grey';
  if (passed === total) return 'green';
  return 2 * passed >= total ? 'orange' : 'red';
}

/**
 * The fill of each tone: dark enough that white text on it has a contrast of at least 4.5:1
 * (WCAG AA for small text), which the badge's 11 px text needs.
 */
export const TONE_FILL: Record<Tone, string> = {
  green: '#2b7a2b',
  orange: '#b04a00',
  red: '#c0282d',
  grey: '#666666',
};
