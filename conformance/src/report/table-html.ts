// The merged table (merge.ts) as the index.html of `pay-conformance report --out DIR`: a row per
// implementation with its badge, a cell per case group coloured by tone.ts; on a phone, a card
// per implementation, a line per group it was judged in.
import { badgeSvg } from './badge.js';
import { rowLabel, type Cell, type Table } from './merge.js';
import { esc, htmlPage, tag } from './page.js';
import { toneOf } from './tone.js';

/** A group's cell; one the implementation was not judged in is left out of a phone's card. */
const cell = (label: string, c: Cell | undefined): string =>
  c
    ? `<td data-label="${esc(label)}">${tag(`${c.passed}/${c.total}`, toneOf(c.passed, c.total))}</td>`
    : `<td class="none" data-label="${esc(label)}"><span class="muted">—</span></td>`;

/** A group's id as a heading that may break after each underscore, rather than anywhere. */
const heading = (id: string): string => esc(id).replace(/_/g, '_<wbr>');

/** index.html of an --out directory. */
export function tableHtml(t: Table): string {
  const head = ['implementation', 'modes', ...t.groups, 'all'].map((h) => `<th scope="col">${heading(h)}</th>`).join('');
  const rows = t.rows.map((r) => {
    const badge = badgeSvg(r.all.passed, r.all.total).replace('<svg ', '<svg class="badge" ');
    return `<tr>
<td class="name"><strong>${esc(rowLabel(r, t.versions))}</strong><br>${badge}</td>
<td data-label="modes">${esc(r.modes.join(', '))}</td>
${t.groups.map((g) => cell(g, r.cells.get(g))).join('\n')}
${cell('all', r.all)}
</tr>`;
  });
  const judged = t.judgedBy.length ? `<p class="muted">Judged by ${esc(t.judgedBy.join(', '))}.</p>` : '';
  const body = `<h1>Conformance results</h1>
<p>Each row is an implementation, each column a group of cases: the cases passed out of the group's cases.
Green: every case passed; orange: some failed, at least half passed; red: fewer than half passed; grey: no cases; —: not judged in that mode.</p>
${judged}
<table class="cards">
<colgroup><col style="width: 15rem"><col style="width: 6.5rem">${'<col>'.repeat(t.groups.length + 1)}</colgroup>
<thead><tr>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  return htmlPage('Conformance results', body);
}
