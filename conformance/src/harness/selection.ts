// What a run replays: the categories and case ids chosen with --category and --id (with `*`
// wildcards), one matcher for every mode. A pattern that matches nothing is a typo, and the
// harness cannot run what was asked: SelectionError (exit 2), in every mode alike. For the
// vectors, an acceptable verdict brings along the vectors it depends on.
import { requiredIds } from './vector-file.js';
import { HarnessError } from '../errors.js';
import type { CategoryFile, Suite } from '../types.js';

/** A --category or --id pattern matches nothing (exit 2). */
export class SelectionError extends HarnessError {
  override name = 'SelectionError';
}

/** `*` in a pattern matches any run of characters; anything else matches itself. */
function matcher(pattern: string): (s: string) => boolean {
  if (!pattern.includes('*')) return (s) => s === pattern;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (s) => re.test(s);
}

/**
 * The names that match any of `patterns` (all of them when there are none); throws a
 * SelectionError naming the first pattern that matches no name, as `what` (`category`, `id`).
 */
export function chosen(names: readonly string[], patterns: readonly string[] | undefined, what: string): Set<string> {
  if (!patterns || patterns.length === 0) return new Set(names);
  const out = new Set<string>();
  for (const p of patterns) {
    const m = matcher(p);
    const hits = names.filter(m);
    if (hits.length === 0) {
      const some = names.slice(0, 8).join(', ');
      throw new SelectionError(`no ${what} matches "${p}" (have ${some}${names.length > 8 ? ', …' : ''})`);
    }
    for (const n of hits) out.add(n);
  }
  return out;
}

/** The categories and ids chosen; empty or absent: all. */
export interface Selection {
  categories?: string[];
  ids?: string[];
}

/** Keeps the chosen categories and ids of a suite of vectors; throws when a pattern matches nothing. */
export function selectCases(suite: Suite, sel: Selection): Suite {
  const cats = chosen(
    suite.categories.map((c) => c.category),
    sel.categories,
    'category',
  );
  let categories = suite.categories.filter((c) => cats.has(c.category));
  if (sel.ids && sel.ids.length > 0) {
    const ids = chosen(
      categories.flatMap((c) => c.vectors.map((v) => v.id)),
      sel.ids,
      'vector id',
    );
    // An acceptable vector brings the vectors its verdict depends on.
    const keep = (c: CategoryFile) => {
      const kept = new Set(c.vectors.filter((v) => ids.has(v.id)).map((v) => v.id));
      for (const v of c.vectors) if (kept.has(v.id)) for (const id of requiredIds(v)) kept.add(id);
      return c.vectors.filter((v) => kept.has(v.id));
    };
    categories = categories.map((c) => ({ ...c, vectors: keep(c) })).filter((c) => c.vectors.length > 0);
  }
  return { ...suite, categories };
}
