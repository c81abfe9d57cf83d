// The cases a run replays: the categories and vector ids chosen with --category and --id (with
// `*` wildcards), and the vectors an acceptable verdict depends on brought along.
import { requiredIds } from './vector-file.js';
import { VectorError } from '../errors.js';
import type { CategoryFile, Suite } from '../types.js';

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

/** The categories and ids chosen; empty or absent: all. */
export interface Selection {
  categories?: string[];
  ids?: string[];
}

/** Keeps the chosen categories and ids; throws when a selector matches nothing (a typo). */
export function selectCases(suite: Suite, sel: Selection): Suite {
  let categories = suite.categories;
  if (sel.categories && sel.categories.length > 0) {
    for (const name of sel.categories) {
      const m = matcher(name);
      if (!categories.some((c) => m(c.category))) {
        throw new VectorError(`no category "${name}" (have ${suite.categories.map((c) => c.category).join(', ')})`);
      }
    }
    const ms = sel.categories.map(matcher);
    categories = categories.filter((c) => ms.some((m) => m(c.category)));
  }
  if (sel.ids && sel.ids.length > 0) {
    const ms = sel.ids.map(matcher);
    // An acceptable vector brings the vectors its verdict depends on.
    const keep = (c: CategoryFile) => {
      const chosen = new Set(c.vectors.filter((v) => ms.some((m) => m(v.id))).map((v) => v.id));
      for (const v of c.vectors) if (chosen.has(v.id)) for (const id of requiredIds(v)) chosen.add(id);
      return c.vectors.filter((v) => chosen.has(v.id));
    };
    categories = categories.map((c) => ({ ...c, vectors: keep(c) })).filter((c) => c.vectors.length > 0);
    if (categories.length === 0) throw new VectorError(`no vector id matches ${sel.ids.join(', ')}`);
  }
  return { ...suite, categories };
}
