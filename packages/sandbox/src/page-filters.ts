// The filters of the admin pages (the dashboard's, the request log's): read from the query
// string, bounded, and written back into the page escaped; and the line that counts what matched.
import { escapeHtml } from './html-kit.js';

// Filters come from the query string: bounded before and after decoding, and only ever written
// back into the page escaped.
const MAX_QUERY_CHARS = 2048;
const MAX_FILTER_CHARS = 64;

/** The named parameters of a query string, each trimmed and cut to MAX_FILTER_CHARS characters ('' when absent). */
export function readFilters<K extends string>(query: string | null, names: readonly K[]): Record<K, string> {
  const params = new URLSearchParams((query ?? '').slice(0, MAX_QUERY_CHARS));
  const read = (name: K) => [...(params.get(name) ?? '').trim()].slice(0, MAX_FILTER_CHARS).join('');
  return Object.fromEntries(names.map((name) => [name, read(name)])) as Record<K, string>;
}

/** A filter form (GET, to the same page) around its fields. */
export function filterForm(action: string, fields: string): string {
  return `<form class="filters" method="get" action="${action}" role="search">${fields}
  <button type="submit">Filter</button> <a href="${action}">Clear</a></form>`;
}

/** A labelled list to choose one value from; '' is "all". */
export function selectField(name: string, label: string, values: readonly string[], chosen: string): string {
  const options = ['', ...new Set([...values, chosen].filter(Boolean))]
    .map((v) => `<option value="${escapeHtml(v)}"${v === chosen ? ' selected' : ''}>${v === '' ? 'all' : escapeHtml(v)}</option>`)
    .join('');
  return `<label>${label}<select name="${name}">${options}</select></label>`;
}

/** A labelled text field, with suggestions. */
export function textField(name: string, label: string, value: string, suggestions: readonly string[] = []): string {
  const list =
    suggestions.length === 0
      ? ''
      : `<datalist id="${name}-list">${suggestions.map((s) => `<option value="${escapeHtml(s)}">`).join('')}</datalist>`;
  return `<label>${label}<input type="search" name="${name}" value="${escapeHtml(value)}" maxlength="${MAX_FILTER_CHARS}"${list ? ` list="${name}-list"` : ''}></label>${list}`;
}

/** "3 of 10 transactions", and how many are shown when fewer than match. */
export function countLine(matching: number, total: number, shown: number, noun: string): string {
  const cut = shown < matching ? `, the newest ${shown} shown` : '';
  return `<p class="count" id="count">${matching} of ${total} ${noun}${cut}</p>`;
}
