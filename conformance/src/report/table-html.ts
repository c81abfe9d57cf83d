// The merged table (merge.ts) as the index.html of `pay-conformance report --out DIR`: a row per
// implementation with its badge, a cell per case group coloured by tone.ts; on a phone, a card
// per implementation, each cell headed by its group.
import { badgeSvg } from './badge.js';
import { rowLabel, type Cell, type Table } from './merge.js';
import { esc, htmlPage, tag } from './page.js';
import { toneOf } from './tone.js';

const cell = (c: Cell | undefined): string =>
  c ? tag(`${c.passed}/${c.total}`, toneOf(c.passed, c.total)) : '<span class="muted">—</span>';

/** index.html of an --out directory. */
export function tableHtml(t: Table): string {
  const head = ['implementation', 'modes', ...t.groups, 'all'].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const rows = t.rows.map((r) => {
    const badge = badgeSvg(r.all.passed, r.all.total).replace('<svg ', '<svg class="badge" ');
    return `<tr>
<td data-label="implementation"><strong>${esc(rowLabel(r, t.versions))}</strong><br>${badge}</td>
<td data-label="modes">${esc(r.modes.join(', '))}</td>
${t.groups.map((g) => `<td data-label="${esc(g)}">${cell(r.cells.get(g))}</td>`).join('\n')}
<td data-label="all">${cell(r.all)}</td>
</tr>`;
  });
  const judged = t.judgedBy.length ? `<p class="muted">Judged by ${esc(t.judgedBy.join(', '))}.</p>` : '';
  const body = `<h1>Conformance results</h1>
<p>Each row is an implementation, each column a group of cases: the cases passed out of the group's cases.
Green: every case passed; orange: some failed, at least half passed; red: fewer than half passed; grey: no cases; —: not judged in that mode.</p>
${judged}
<table class="cards">
<thead><tr>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  return htmlPage('Conformance results', body);
}
