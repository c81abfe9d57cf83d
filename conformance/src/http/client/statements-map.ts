// The map of what client mode judges, as the README shows it: each statement of statements.ts with
// the cases that judge it (inverted from the cases' own `judges`), what judges it on every request
// or answer, the mode that judges it instead, or "gap". One function, so that the script that
// writes the README and the test that holds it in step print the same table.
import type { ClientCase } from './cases.js';
import type { Statement } from './statements.js';

/** The ids of the cases that name each statement, in the cases' order. */
export function casesByStatement(cases: readonly ClientCase[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of cases) {
    for (const id of c.judges) {
      const list = out.get(id) ?? [];
      list.push(`${c.category}/${c.name}`);
      out.set(id, list);
    }
  }
  return out;
}

/** A table cell: pipes escaped, so that a statement's words never split a row. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The map as a Markdown table, with a line that counts what it shows. */
export function statementsMap(statements: readonly Statement[], cases: readonly ClientCase[]): string {
  const byStatement = casesByStatement(cases);
  const rows = statements.map((s) => {
    const judged = byStatement.get(s.id) ?? [];
    const by = [
      ...judged.map((id) => `\`${id}\``),
      ...(s.every ? [s.every] : []),
      ...(s.elsewhere ? [`not client mode: ${s.elsewhere}`] : []),
      ...(s.gap ? [`**gap**: ${s.gap}`] : []),
    ];
    const from = s.source === 'interface' ? `interface: ${s.where}` : 'PROTOCOL.md';
    return `| \`${s.id}\` | ${cell(s.says)} | ${cell(from)} | ${s.kind} | ${cell(by.join('; '))} |`;
  });
  const gaps = statements.filter((s) => s.gap).length;
  const freedoms = statements.filter((s) => s.kind === 'freedom').length;
  return [
    `${statements.length} statements (${statements.filter((s) => s.source === 'interface').length} of the interface, ${statements.filter((s) => s.source === 'protocol').length} of PROTOCOL.md; ${freedoms} of them freedoms the runner's service uses); ${gaps} ${gaps === 1 ? 'gap' : 'gaps'}.`,
    '',
    '| statement | what it says | from | kind | judged by |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
