// The merged table (merge.ts) as Markdown: what `pay-conformance report` prints, and the README.md
// of its --out directory. Markdown has no colour, so each count carries the tone's mark; every
// text from a summary is escaped, so a name cannot break the table or open a link.
import { rowLabel, type Cell, type Table } from './merge.js';
import { toneOf, type Tone } from './tone.js';

/** The mark of each tone (tone.ts says when each applies). */
const MARK: Record<Tone, string> = { green: '🟢', orange: '🟠', red: '🔴', grey: '⚪' };

/** Text as Markdown: on one line, with everything that could start a construct escaped. */
const md = (s: string): string => s.replace(/[\r\n]+/g, ' ').replace(/[\\`*_[\]<>|~&!#]/g, (c) => `\\${c}`);

/** Text in a code span; a pipe escaped (GFM splits cells before it reads code spans). */
const code = (s: string): string => (s.includes('`') ? md(s) : `\`${s.replace(/[\r\n]+/g, ' ').replace(/\|/g, '\\|')}\``);

const cell = (c: Cell | undefined): string => (c ? `${MARK[toneOf(c.passed, c.total)]} ${c.passed}/${c.total}` : '—');

/** The legend under the table. */
const LEGEND = `${MARK.green} every case passed · ${MARK.orange} some failed, at least half passed · ${MARK.red} fewer than half passed · ${MARK.grey} no cases · — not judged in that mode`;

/** The table in Markdown; with `badges`, a column of each row's badge (badges/<slug>.svg). */
export function tableMarkdown(t: Table, options: { badges: boolean }): string {
  const head = ['implementation', 'modes', ...t.groups.map(code), 'all', ...(options.badges ? ['badge'] : [])];
  const align = ['---', '---', ...t.groups.map(() => '---:'), '---:', ...(options.badges ? ['---'] : [])];
  const rows = t.rows.map((r) => [
    md(rowLabel(r, t.versions)),
    md(r.modes.join(', ')),
    ...t.groups.map((g) => cell(r.cells.get(g))),
    cell(r.all),
    ...(options.badges ? [`![${md(`conformance: ${r.all.passed}/${r.all.total}`)}](badges/${r.slug}.svg)`] : []),
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const judged = t.judgedBy.length ? `\nJudged by ${t.judgedBy.map(md).join(', ')}.\n` : '';
  return `${[line(head), line(align), ...rows.map(line)].join('\n')}\n\n${LEGEND}\n${judged}`;
}

/** The README.md of an --out directory: a heading, the table with badges, and where it comes from. */
export function resultsReadme(t: Table): string {
  return `# Conformance results

Written by \`pay-conformance report\` from one report directory per implementation and mode
(\`--report DIR\`); run it again rather than edit this file. [index.html](index.html) shows the same
table; each implementation's badge is in [badges/](badges/).

${tableMarkdown(t, { badges: true })}`;
}
