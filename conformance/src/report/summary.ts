// The counts per category that every report and mode shows: one summariser for the vectors'
// categories and the HTTP modes' alike.
import { FAILED_STATUSES, type CaseResult, type CategorySummary } from '../types.js';

/** A category to count, with the command its cases ran. */
export interface CategoryName {
  category: string;
  command: string;
}

/** The categories of some cases, in the order they first appear, each with its first case's command. */
function categoriesOf(cases: readonly CaseResult[]): CategoryName[] {
  const first = new Map<string, string>();
  for (const c of cases) if (!first.has(c.category)) first.set(c.category, c.command);
  return [...first].map(([category, command]) => ({ category, command }));
}

/**
 * Passed, failed and skipped per category. `categories` fixes which are listed and in what order
 * (a suite's, so that a category none of whose cases ran still shows, with 0); by default, the
 * categories of the cases, in the order they first appear.
 */
export function summarise(cases: readonly CaseResult[], categories: readonly CategoryName[] = categoriesOf(cases)): CategorySummary[] {
  return categories.map(({ category, command }) => {
    const mine = cases.filter((r) => r.category === category);
    return {
      category,
      command,
      total: mine.length,
      passed: mine.filter((r) => r.status === 'pass').length,
      failed: mine.filter((r) => FAILED_STATUSES.has(r.status)).length,
      skipped: mine.filter((r) => r.status === 'skip').length,
    };
  });
}
