// The shell both HTML pages share (a run's report, and the table merged across implementations):
// one self-contained document, its style inline, no script and nothing fetched (not even the
// favicon a browser asks for on its own: the page names an empty one), so it can be opened from
// disk, attached to a CI run or served as it is. The style lives here, in code, not in
// a file beside it: the runner also ships as a one-file bundle, where no such file exists.
//
// Tables read as tables on a desktop and, below 720 px, as one card per row, each cell headed by
// its column's name (data-label) or set side by side (.inline): a phone at 390 px never scrolls
// sideways. Long ids, JSON and
// stderr wrap anywhere rather than push the page wider.
import { xmlEscape } from './escape.js';
import type { Tone } from './tone.js';

const STYLE = `
:root { color-scheme: light; --fg: #1d1d1f; --muted: #595959; --line: #d9d9de; --soft: #f4f4f6;
  --green: #2b7a2b; --orange: #b04a00; --red: #c0282d; --grey: #666666; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #ffffff;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0.2em 0 0.4em; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.8em 0 0.5em; overflow-wrap: anywhere; }
p, li, dd { overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.85rem; }
.muted { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; margin: 0 0 1em; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; min-width: 0; }
.counts { display: flex; flex-wrap: wrap; gap: 6px; padding: 0; margin: 0 0 1em; list-style: none; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
th, td { text-align: left; vertical-align: top; padding: 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; min-width: 0; }
th { font-size: 0.85rem; color: var(--muted); font-weight: 600; }
.tag { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #ffffff; font-size: 0.85rem; font-weight: 600; white-space: nowrap; }
.t-green { background: var(--green); } .t-orange { background: var(--orange); }
.t-red { background: var(--red); } .t-grey { background: var(--grey); }
.diagnosis { white-space: pre-wrap; margin: 0 0 0.3em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.4em 0 0; padding: 8px; background: var(--soft); border-radius: 4px; }
summary { cursor: pointer; color: var(--muted); }
.badge { vertical-align: middle; max-width: 100%; height: auto; }
@media (max-width: 720px) {
  main { padding: 12px; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards thead { display: none; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 12px; padding: 4px 0; }
  table.cards td { border: 0; padding: 4px 12px; }
  table.cards td[data-label] { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; }
  table.cards td[data-label]::before { content: attr(data-label); font-size: 0.85rem; color: var(--muted); min-width: 0; }
  table.cards td.none { display: none; }
  table.cards td.case { font-weight: 600; }
  table.cards td.inline { display: inline-block; width: auto; max-width: 100%; }
}
`;

/** Text as HTML: escaped, never markup. */
export const esc = xmlEscape;

/** A count or verdict as a coloured tag. */
export const tag = (text: string, tone: Tone): string => `<span class="tag t-${tone}">${esc(text)}</span>`;

/** A whole document: `title` escaped, `body` already HTML. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
