// Several report directories as one table: a row per implementation, a column per case group,
// each cell the group's passes out of its cases. An implementation judged in several modes (its
// signatures with `run`, its SDK with `client`) is one row with the groups of each. The table is
// a value; table-markdown.ts and table-html.ts write it. Nothing in it depends on when or where the
// runs happened, only on what the summaries say, so merging the same summaries gives the same bytes.
import { join } from 'node:path';
import { SUMMARY_FILE, type SummaryFile } from './summary-file.js';
import { ReportInputError } from '../errors.js';

/** One cell: a group's passes out of its cases. */
export interface Cell {
  passed: number;
  total: number;
}

/** One implementation. */
export interface Row {
  name: string;
  version: string | null;
  /** the modes it was judged in, in the order given */
  modes: string[];
  cells: Map<string, Cell>;
  /** every group's cases together */
  all: Cell;
  /** a name for its files (badges/<slug>.svg): lowercase letters, digits and dashes */
  slug: string;
}

/** The merged table. */
export interface Table {
  /** the case groups, in the order they first appear in the summaries given */
  groups: string[];
  /** sorted by name, then version */
  rows: Row[];
  /** the runners that judged, "name version", once each (none when versions are left out) */
  judgedBy: string[];
  /** whether versions are shown */
  versions: boolean;
}

/** A summary and the directory it was read from. */
export interface Input {
  dir: string;
  summary: SummaryFile;
}

/** What may go in a file name: lowercase ASCII letters and digits, dashes between. */
const slugOf = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'implementation';

/** Unique slugs: by name, by name and version where names clash, then numbered. */
function assignSlugs(rows: Row[]): void {
  const byName = new Map<string, number>();
  for (const r of rows) byName.set(slugOf(r.name), (byName.get(slugOf(r.name)) ?? 0) + 1);
  const taken = new Set<string>();
  for (const r of rows) {
    const base = byName.get(slugOf(r.name))! > 1 ? slugOf(`${r.name} ${r.version ?? ''}`) : slugOf(r.name);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    r.slug = slug;
  }
}

/**
 * The table of some summaries. `versions: false` leaves out every version (the implementations'
 * and the runner's): a table committed beside the code it judges, which a release must not make
 * stale. Two summaries of one implementation (name and version) in one mode, or that both have a
 * group, cannot be one row: a ReportInputError names the second.
 */
export function mergeSummaries(inputs: readonly Input[], options: { versions: boolean }): Table {
  const rows = new Map<string, Row & { from: Map<string, string> }>();
  const groups: string[] = [];
  const judgedBy = new Set<string>();
  for (const { dir, summary: s } of inputs) {
    const file = join(dir, SUMMARY_FILE);
    const key = JSON.stringify([s.implementation.name, s.implementation.version]);
    let row = rows.get(key);
    if (!row) {
      row = {
        name: s.implementation.name,
        version: s.implementation.version,
        modes: [],
        cells: new Map(),
        all: { passed: 0, total: 0 },
        slug: '',
        from: new Map(),
      };
      rows.set(key, row);
    }
    const who = `${s.implementation.name}${s.implementation.version ? ` ${s.implementation.version}` : ''}`;
    if (row.modes.includes(s.mode)) {
      throw new ReportInputError(
        file,
        'mode',
        `${who} in ${s.mode} mode is also in ${row.from.get(s.mode)}: give each implementation's report of a mode once`,
      );
    }
    row.modes.push(s.mode);
    row.from.set(s.mode, file);
    for (const [i, g] of s.groups.entries()) {
      if (row.cells.has(g.id)) throw new ReportInputError(file, `groups[${i}].id`, `${who} already has group "${g.id}" from another mode`);
      row.cells.set(g.id, { passed: g.counts.pass, total: g.total });
      row.all.passed += g.counts.pass;
      row.all.total += g.total;
      if (!groups.includes(g.id)) groups.push(g.id);
    }
    judgedBy.add(`${s.toolkit.name} ${s.toolkit.version}`);
  }
  const sorted = [...rows.values()]
    .map(({ from: _from, ...row }) => row)
    .sort((a, b) => compare(a.name, b.name) || compare(a.version ?? '', b.version ?? ''));
  assignSlugs(sorted);
  return { groups, rows: sorted, judgedBy: options.versions ? [...judgedBy].sort(compare) : [], versions: options.versions };
}

/** Code-point order: the same on every machine, whatever its locale. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A row's name as the table shows it: with its version when versions are shown. */
export const rowLabel = (r: Row, versions: boolean): string => (versions && r.version ? `${r.name} ${r.version}` : r.name);
