// The HTML page of a report directory (index.html): who was judged, the counts, then every case
// group with each case's verdict, the mistake named and the evidence. Written from the summary
// alone (already masked), so the page can show nothing the JSON does not; every text in it is
// escaped. A failure's diagnosis and evidence are shown open, a pass's behind a disclosure.
import { badgeSvg } from './badge.js';
import { esc, htmlPage, tag } from './page.js';
import { VERDICTS, type SummaryCase, type SummaryFile, type SummaryGroup } from './summary-file.js';
import { toneOf, type Tone } from './tone.js';
import type { CaseStatus } from '../types.js';

/** A verdict's colour: a pass green, a skip grey (not proven, not failed), anything else red. */
const verdictTone = (v: CaseStatus): Tone => (v === 'pass' ? 'green' : v === 'skip' ? 'grey' : 'red');

/** The evidence of a case as its cell shows it: the diagnosis in words, the rest as JSON. */
function evidenceCell(c: SummaryCase): string {
  const { diagnosis, ...rest } = c.evidence;
  const words = typeof diagnosis === 'string' && diagnosis ? `<p class="diagnosis">${esc(diagnosis)}</p>` : '';
  const open = c.verdict !== 'pass' && c.verdict !== 'skip' ? ' open' : '';
  return `${words}<details${open}><summary>evidence</summary><pre>${esc(JSON.stringify(rest, null, 2))}</pre></details>`;
}

/** The mistake named; for a failure the runner could not name, says so; nothing for a pass or a skip. */
function mistakeCell(c: SummaryCase): string {
  if (c.mistake) return `<code>${esc(c.mistake)}</code>`;
  return c.verdict === 'pass' || c.verdict === 'skip' ? '' : '<span class="muted">none named</span>';
}

function caseRow(c: SummaryCase): string {
  return `<tr id="${esc(`case-${c.id}`)}">
<td class="case"><code>${esc(c.id)}</code></td>
<td class="inline">${tag(c.verdict.replace('_', ' '), verdictTone(c.verdict))}</td>
<td class="inline">${mistakeCell(c)}</td>
<td>${evidenceCell(c)}</td>
</tr>`;
}

function groupSection(g: SummaryGroup, cases: SummaryCase[]): string {
  const mine = cases.filter((c) => c.group === g.id);
  const rows = mine.length ? mine.map(caseRow).join('\n') : '<tr><td colspan="4" class="muted">no case of this group ran</td></tr>';
  return `<section>
<h2><code>${esc(g.id)}</code> ${tag(`${g.counts.pass}/${g.total}`, toneOf(g.counts.pass, g.total))}</h2>
<table class="cards">
<colgroup><col style="width: 30%"><col style="width: 8.5rem"><col style="width: 20%"><col></colgroup>
<thead><tr><th scope="col">case</th><th scope="col">verdict</th><th scope="col">mistake named</th><th scope="col">evidence</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>`;
}

/** The counts per verdict, the ones that occurred, as tags. */
function countsList(s: SummaryFile): string {
  const shown = VERDICTS.filter((v) => s.counts[v] > 0);
  const items = shown.map((v) => `<li>${tag(`${s.counts[v]} ${v.replace('_', ' ')}`, verdictTone(v))}</li>`);
  return `<ul class="counts">${items.length ? items.join('') : '<li class="muted">no cases</li>'}</ul>`;
}

/** The facts of the run, as a definition list. */
function facts(s: SummaryFile): string {
  const i = s.implementation;
  const rows: [string, string][] = [
    ['implementation', `${i.name}${i.version ? ` ${i.version}` : ''}`],
    ...(i.language ? [['language', i.language] as [string, string]] : []),
    [s.mode === 'server' || s.mode === 'webhook-endpoint' ? 'address' : 'command', i.command],
    ['mode', s.mode],
    ['suite', `${s.suite} ${s.suite_version}`],
    ['judged by', `${s.toolkit.name} ${s.toolkit.version}`],
  ];
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

/** index.html of a report directory. */
export function toHtmlPage(s: SummaryFile): string {
  const name = s.implementation.name;
  const notes = s.notes.length ? `<ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '';
  const body = `<h1>${esc(name)}</h1>
<p>${badgeSvg(s.counts.pass, s.total).replace('<svg ', '<svg class="badge" ')}</p>
${facts(s)}
${countsList(s)}
${notes}
<p class="muted">Secrets and card data are masked wherever they appear (‹secret›, ‹card›, ‹masked›).</p>
${s.groups.map((g) => groupSection(g, s.cases)).join('\n')}`;
  return htmlPage(`${name}: ${s.mode} conformance`, body);
}
