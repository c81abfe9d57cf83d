// Server-rendered pages: the dashboard (transactions, deliveries, buttons, filters) and the hosted
// payment page, plus what every page shares (escaping, the style, the header, times and amounts).
// Every value from a request is escaped, and text a merchant wrote sits in <bdi> so a direction
// override in it cannot reorder the rest of the page. No secret and no card data beyond the last
// four digits is ever written into a page.
import { FIRST_STATUS, isTerminalStatus, KNOWN_STATUSES } from '@pay/schema';
import { formatAmount, formatTime, serviceMs } from './format.js';
import { PAGE_SCRIPT_PATH } from './page-script.js';
import { SIGN_IN_SCRIPT_PATH } from './sign-in-script.js';
import { executesAt, type Transaction } from './records.js';
import type { State } from './state.js';
import { maskedCut, maskText } from './masking.js';
import type { DeliveryAttempt } from './deliveries.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text escaped for HTML content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Text someone else wrote: escaped, and isolated so its direction marks end with it. */
export function foreign(value: unknown): string {
  return `<bdi>${escapeHtml(value)}</bdi>`;
}

/** A time as people read it (`2026-11-23 20:24:49 UTC`), the full ISO value in the markup. */
export function timeHtml(ms: number, id = ''): string {
  const shown = formatTime(ms);
  if (shown === '') return '';
  const iso = new Date(ms).toISOString();
  return `<time${id ? ` id="${escapeHtml(id)}"` : ''} datetime="${iso}" title="${iso}">${shown}</time>`;
}

/** An amount with its currency's decimals, never broken across lines. */
export function amountHtml(amount: number | string, currency: string): string {
  return `<span class="amount">${escapeHtml(formatAmount(amount, currency))}</span>`;
}

const STYLE = `
  :root { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; }
  a { color: #1a56c4; }
  input, select, button { font: inherit; }
  code { font-size: 12px; }
  time, .amount, .nowrap { white-space: nowrap; }
  .text { overflow-wrap: anywhere; }
  .bar { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .75rem 1.25rem; background: #1d2330; color: #fff; }
  .bar h1 { font-size: 1.1rem; margin: 0; }
  .bar a { color: #cfe0ff; }
  .bar nav { display: flex; gap: .75rem; }
  .bar nav a[aria-current] { color: #fff; font-weight: 600; text-decoration: none; border-bottom: 2px solid #fff; }
  .bar .group { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; }
  #seconds { width: 5rem; }
  #notice { min-height: 1.2em; color: #ffb4ab; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: end; padding: .6rem 1.25rem; background: #e9ecf1; border-bottom: 1px solid #d5d9e0; }
  .filters label { display: flex; flex-direction: column; gap: .15rem; font-size: 12px; color: #3d4452; }
  .filters input { width: 12rem; max-width: 100%; }
  main { padding: 1rem 1.25rem; }
  .count { margin: 0 0 .5rem; color: #3d4452; }
  .scroll { overflow-x: auto; }
  .panel { background: #fff; border: 1px solid #e3e6ea; border-radius: .4rem; }
  table { border-collapse: collapse; width: 100%; }
  table.list { min-width: 56rem; }
  table.list td.reference { min-width: 9rem; }
  table.attempts { min-width: 48rem; }
  table.attempts td.answer { white-space: nowrap; }
  table.attempts td:last-child { min-width: 14rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
  th { font-weight: 600; background: #eef0f3; white-space: nowrap; }
  .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  tr:target > td { background: #fff6d6; }
  tr.deliveries > td { background: #fafbfc; padding-left: 2rem; }
  tr.deliveries table { font-size: 12px; }
  .actions { display: flex; flex-wrap: wrap; gap: .25rem; }
  .actions button { white-space: nowrap; }
  .links { display: flex; flex-wrap: wrap; gap: .1rem .6rem; font-size: 12px; }
  .status { font-weight: 600; padding: .1rem .4rem; border-radius: .25rem; background: #e3e6ea; white-space: nowrap; }
  .status-new { background: #dde8ff; } .status-executed { background: #d6f5dd; }
  .status-failed { background: #ffdcdc; } .status-expired { background: #eee; color: #666; }
  .ok { color: #137333; } .bad { color: #b3261e; } .due { color: #666; }
  tr.details > td { background: #fafbfc; padding-left: 2rem; }
  .hint { margin: .2rem 0; padding: .35rem .6rem; background: #fff4c2; border-left: 4px solid #e0a800; overflow-wrap: anywhere; }
  .message { margin: .2rem 0; color: #3d4452; overflow-wrap: anywhere; }
  .field-errors { margin: .2rem 0; padding-left: 1.25rem; color: #3d4452; overflow-wrap: anywhere; }
  .field-errors code { color: #b3261e; }
  details summary { cursor: pointer; color: #1a56c4; font-size: 12px; }
  pre { margin: .3rem 0; padding: .5rem; background: #f0f2f5; white-space: pre-wrap; font-size: 12px; max-height: 20rem; overflow: auto; }
  .empty { padding: 2rem; text-align: center; color: #666; background: #fff; }
  /* A transaction's page: its facts, then its timeline, a vertical line with one dot per entry. */
  .summary { padding: .75rem 1rem; margin: 0 0 1rem; }
  .summary h2 { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; font-size: 1.05rem; margin: 0 0 .5rem; }
  .facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); gap: .35rem 1rem; margin: 0 0 .5rem; }
  .facts dt { font-size: 11px; color: #5b6372; }
  .facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
  .summary .links { margin: 0 0 .5rem; }
  h2.heading { font-size: 1rem; margin: 0 0 .5rem; }
  h2.heading small { font-weight: 400; color: #5b6372; }
  ol.timeline { list-style: none; margin: 0 0 0 .5rem; padding: 0 0 0 1.5rem; border-left: 2px solid #c9ced6; }
  ol.timeline > li { position: relative; margin: 0 0 .6rem; padding: .4rem .75rem; background: #fff; border: 1px solid #e3e6ea; border-radius: .4rem; min-width: 0; }
  ol.timeline > li::before { content: ''; position: absolute; left: calc(-1.5rem - 7px); top: .75rem; width: 12px; height: 12px; border-radius: 50%; border: 2px solid #f6f7f9; background: #8a93a3; }
  ol.timeline > li.event-request::before { background: #1a56c4; }
  ol.timeline > li.event-status::before { background: #137333; }
  ol.timeline > li.event-resend::before { background: #e0a800; }
  ol.timeline > li.event-webhook::before { background: #6b4fbb; }
  ol.timeline > li.webhook-failed::before { background: #b3261e; }
  ol.timeline > li.webhook-due::before { background: #fff; border-color: #6b4fbb; }
  .event .when { font-size: 12px; color: #3d4452; }
  .event .what, .event .result { overflow-wrap: anywhere; }
  .event .result { font-size: 13px; }
  .note { color: #5b6372; font-size: 12px; overflow-wrap: anywhere; }
  /* On a phone, each row of a list is a card: its cells stacked, each under its label, and so is
     each webhook attempt; only a body scrolls sideways, inside its own box. */
  @media (max-width: 48rem) {
    .bar, .filters, main { padding-left: .75rem; padding-right: .75rem; }
    table.list, table.list > tbody { display: block; min-width: 0; }
    table.list > thead { display: none; }
    table.list > tbody > tr { display: flex; flex-wrap: wrap; gap: .35rem 1rem; padding: .6rem .75rem; border-bottom: 1px solid #e3e6ea; }
    table.list > tbody > tr > td { display: block; flex: 1 1 100%; min-width: 0; padding: 0; border: 0; text-align: left; }
    table.list > tbody > tr > td.pair { flex: 1 0 auto; max-width: 100%; }
    table.list > tbody > tr > td[data-label]:empty { display: none; }
    table.list > tbody > tr > td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: #5b6372; }
    table.list > tbody > tr.deliveries, table.list > tbody > tr.details { padding-top: 0; }
    table.attempts, table.attempts > tbody { display: block; min-width: 0; }
    table.attempts > thead { display: none; }
    table.attempts > tbody > tr { display: flex; flex-wrap: wrap; gap: .15rem 1rem; padding: .35rem 0; border-bottom: 1px solid #e3e6ea; }
    table.attempts > tbody > tr > td { display: block; min-width: 0; padding: 0; border: 0; text-align: left; }
    table.attempts > tbody > tr > td:last-child { flex: 1 1 100%; min-width: 0; }
    table.attempts > tbody > tr > td[data-label]:empty { display: none; }
    table.attempts > tbody > tr > td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: #5b6372; }
  }
`;

/** A page of the admin area: the header (title, navigation, tools), the filters and the main part. */
export function adminPage(parts: {
  title: string;
  /** The page of the navigation this is, if any. */
  current: 'transactions' | 'requests' | null;
  tools: string;
  filters: string;
  version: number;
  main: string;
}): string {
  const link = (href: string, label: string, key: 'transactions' | 'requests') =>
    `<a href="${href}"${parts.current === key ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title><link rel="icon" href="data:,"><style>${STYLE}</style>
<script type="module" src="/_sandbox${PAGE_SCRIPT_PATH}"></script></head>
<body>
<header class="bar">
  <h1>Payments sandbox</h1>
  <nav>${link('/_sandbox/', 'Transactions', 'transactions')} ${link('/_sandbox/log', 'Requests', 'requests')}</nav>
  ${parts.tools}
</header>
${parts.filters}
<main id="main" data-version="${parts.version}">${parts.main}</main>
</body></html>`;
}

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
function selectField(name: string, label: string, values: readonly string[], chosen: string): string {
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

// The dashboard.

/** How many transactions the dashboard shows (the newest that match its filters). */
const DASHBOARD_ROWS = 200;

type DashboardFilter = Record<'merchant' | 'status' | 'reference', string>;

function matchesFilter(tx: Transaction, filter: DashboardFilter): boolean {
  if (filter.merchant !== '' && tx.merchantId !== filter.merchant) return false;
  if (filter.status !== '' && tx.status !== filter.status) return false;
  // A reference is found by any part of it, any case; a transaction id pasted there finds it too.
  const wanted = filter.reference.toLowerCase();
  return wanted === '' || (tx.referenceId ?? '').toLowerCase().includes(wanted) || tx.id.toLowerCase().includes(wanted);
}

/** A status as a badge (its color from its name). */
export function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status)}">${escapeHtml(status)}</span>`;
}

/** The buttons that change a transaction (while it is open) and resend its last webhook; the page script calls the admin API. */
export function transactionActions(tx: Transaction): string {
  const kind = tx.kind === 'payin' ? 'payins' : 'payouts';
  const button = (action: string, label: string, extra = '') =>
    `<button type="button" data-action="${action}" data-kind="${kind}" data-id="${escapeHtml(tx.id)}"${extra}>${label}</button>`;
  const open = !isTerminalStatus(tx.status);
  return [
    open ? button('status', 'Execute', ' data-status="executed"') : '',
    open ? button('status', 'Fail', ' data-status="failed"') : '',
    open ? button('status', 'Expire', ' data-status="expired"') : '',
    button('resend', 'Resend last webhook'),
  ].join(' ');
}

/** When an attempt happened, or is due if it has not been sent yet. */
function attemptTime(a: DeliveryAttempt): number {
  return serviceMs(a.sent_at ?? a.due_at);
}

/** Attempts in the order they happen (sent, or due), ties by attempt number; not the order planned. */
export function attemptsInTimeOrder(attempts: readonly DeliveryAttempt[]): DeliveryAttempt[] {
  return [...attempts].sort((a, b) => attemptTime(a) - attemptTime(b) || a.attempt - b.attempt);
}

/** A webhook attempt's answer: the receiver's status, why there was none, or that it is still due. */
export function attemptAnswerHtml(a: Pick<DeliveryAttempt, 'response_status' | 'error' | 'sent_at'>): string {
  if (a.response_status !== null)
    return `<span class="${a.response_status >= 200 && a.response_status < 300 ? 'ok' : 'bad'}">${a.response_status}</span>`;
  if (a.error !== null) return `<span class="bad">${escapeHtml(a.error)}</span>`;
  return `<span class="due">${a.sent_at === null ? 'due' : 'sending'}</span>`;
}

function deliveriesTable(attempts: readonly DeliveryAttempt[]): string {
  if (attempts.length === 0) return '<span class="due">no webhooks</span>';
  const rows = attemptsInTimeOrder(attempts)
    .map(
      (a) =>
        `<tr data-attempt="${a.attempt}" data-webhook-status="${escapeHtml(a.status)}"><td data-label="webhook">${escapeHtml(a.status)}</td><td class="num" data-label="attempt">${a.attempt}</td>` +
        `<td data-label="due">${timeHtml(serviceMs(a.due_at))}</td><td data-label="sent">${a.sent_at === null ? '' : timeHtml(serviceMs(a.sent_at))}</td>` +
        `<td class="answer" data-label="answer">${attemptAnswerHtml(a)}</td><td data-label="to"><code class="text">${foreign(maskText(a.url))}</code></td></tr>`,
    )
    .join('');
  return `<div class="scroll"><table class="attempts"><thead><tr><th>webhook</th><th>attempt</th><th>due</th><th>sent</th><th>answer</th><th>to</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function transactionLinks(tx: Transaction, webhooks: number): string {
  const id = encodeURIComponent(tx.id);
  const hosted = tx.nextAction.type === 'redirect' ? `<a href="/_sandbox/pay/${id}" data-link="hosted">hosted page</a>` : '';
  return `<span class="links">${hosted}<a href="#deliveries-${id}" data-link="deliveries">webhooks (${webhooks})</a><a href="/_sandbox/timeline/${id}" data-link="timeline">timeline</a></span>`;
}

function transactionRows(state: State, tx: Transaction): string {
  const attempts = state.deliveries.list(tx.id);
  const fee = tx.fee === null ? '' : amountHtml(tx.fee.amount, tx.fee.currency);
  const card = tx.cardLast4 === null ? '' : `<br><small>•••• ${escapeHtml(tx.cardLast4)}</small>`;
  const error =
    tx.errorCode === null ? '' : `<br><small class="bad text">${foreign(tx.errorCode)}: ${foreign(tx.errorMessage ?? '')}</small>`;
  const id = escapeHtml(tx.id);
  return `<tr class="transaction" id="tx-${id}" data-transaction="${id}">
  <td><code>${id}</code><br><small>${tx.kind} · ${escapeHtml(tx.merchantId)}</small><br>${transactionLinks(tx, attempts.length)}</td>
  <td class="text reference" data-label="reference">${foreign(tx.referenceId ?? '')}</td>
  <td class="status-cell pair" data-label="status">${statusBadge(tx.status)}${error}</td>
  <td class="num pair" data-label="amount">${amountHtml(tx.amountDigits, tx.currency)}</td>
  <td class="num pair" data-label="fee">${fee}</td>
  <td class="text customer" data-label="customer">${foreign(tx.customer)}${card}</td>
  <td class="nowrap" data-label="times"><small>created ${timeHtml(tx.createdAt)}<br>updated ${timeHtml(tx.updatedAt)}<br>expires ${timeHtml(tx.expiresAt)}</small></td>
  <td><div class="actions">${transactionActions(tx)}</div></td>
</tr>
<tr class="deliveries" id="deliveries-${id}" data-deliveries="${id}"><td colspan="8">${deliveriesTable(attempts)}</td></tr>`;
}

/** The schedule clock and the buttons that move it. */
export function clockTools(state: State): string {
  return `<span>clock ${timeHtml(state.schedule.now(), 'clock')}</span>
  <span class="group">advance
    <button type="button" data-action="advance" data-seconds="900">+15 min</button>
    <button type="button" data-action="advance" data-seconds="1800">+30 min</button>
    <button type="button" data-action="advance" data-seconds="3600">+1 h</button>
    <span class="nowrap"><input id="seconds" type="number" min="0" value="60" aria-label="seconds"> s
    <button type="button" data-action="advance" data-seconds="">Advance</button></span>
  </span>`;
}

function dashboardTools(state: State): string {
  const merchants = [...state.merchants.keys()].map((id) => `<code>${escapeHtml(id)}</code>`).join(', ');
  return `${clockTools(state)}
  <button type="button" data-action="reset">Reset</button>
  <span>merchants ${merchants}</span>
  <span id="notice" role="status"></span>`;
}

function dashboardFilters(state: State, filter: DashboardFilter): string {
  const statuses = new Set<string>(KNOWN_STATUSES);
  for (const tx of state.transactions.values()) statuses.add(tx.status);
  return filterForm(
    '/_sandbox/',
    selectField('merchant', 'merchant', [...state.merchants.keys()], filter.merchant) +
      selectField('status', 'status', [...statuses], filter.status) +
      textField('reference', 'reference or id', filter.reference),
  );
}

/**
 * The dashboard: the newest transactions matching the filters of the query string (`merchant`,
 * `status`, `reference`), each with its webhook attempts, and the controls.
 */
export function dashboardPage(state: State, base: string, query: string | null = null): string {
  const filter = readFilters(query, ['merchant', 'status', 'reference']);
  const matching = [...state.transactions.values()].reverse().filter((tx) => matchesFilter(tx, filter));
  const shown = matching.slice(0, DASHBOARD_ROWS);
  const total = state.transactions.size;
  const table =
    total === 0
      ? `<p class="empty">No transactions yet. Create a payin with a signed <code>POST ${escapeHtml(base)}/v2/merchants/payins/</code>.</p>`
      : shown.length === 0
        ? '<p class="empty">No transaction matches these filters.</p>'
        : `<div class="scroll panel"><table class="list"><thead><tr><th>transaction</th><th>reference</th><th>status</th><th class="num">amount</th><th class="num">fee</th><th>customer</th><th>times</th><th>actions</th></tr></thead>
<tbody>${shown.map((tx) => transactionRows(state, tx)).join('\n')}</tbody></table></div>`;
  return adminPage({
    title: 'Payments sandbox',
    current: 'transactions',
    tools: dashboardTools(state),
    filters: dashboardFilters(state, filter),
    version: state.version,
    main: `${countLine(matching.length, total, shown.length, 'transactions')}${table}`,
  });
}

/** The page for an address under /_sandbox/ that is none of the sandbox's: what there is instead. */
export function notFoundPage(state: State, path: string): string {
  return adminPage({
    title: 'Not found · Payments sandbox',
    current: null,
    tools: '',
    filters: '',
    version: state.version,
    main: `<div class="empty" id="not-found"><p>The sandbox has no page <code class="text">${foreign(maskedCut(path, 200))}</code>.</p>
<p>Its pages: <a href="/_sandbox/">the transactions</a> (each with its hosted page and timeline) and <a href="/_sandbox/log">the requests</a>. Its admin API answers JSON under <code>/_sandbox/</code>: see the package's README.</p></div>`,
  });
}

// The hosted payment page: the customer's, so a page of its own, readable on a phone.

const CARD_STYLE = `
  :root { font: 16px/1.5 system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; padding: 2rem 1rem; }
  .card { max-width: 28rem; margin: 0 auto; background: #fff; padding: 1.5rem; border-radius: .6rem; box-shadow: 0 1px 3px rgba(0, 0, 0, .12); }
  .brand { margin: 0 0 .25rem; font-size: .8rem; color: #5b6372; text-transform: uppercase; letter-spacing: .05em; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  h1 .id { display: block; font: 500 .85rem/1.3 ui-monospace, monospace; color: #5b6372; overflow-wrap: anywhere; }
  .total { font-size: 2rem; font-weight: 600; margin: 0 0 1rem; overflow-wrap: anywhere; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0 0 1.25rem; }
  dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
  .choices { display: flex; flex-wrap: wrap; gap: .5rem; }
  .choices form { flex: 1 1 8rem; margin: 0; }
  .choices button { width: 100%; font: inherit; padding: .6rem 1rem; border-radius: .4rem; border: 1px solid #1d2330; background: #fff; cursor: pointer; }
  .choices #pay { background: #1d2330; color: #fff; }
  .status { font-weight: 600; padding: .1rem .4rem; border-radius: .25rem; background: #e3e6ea; }
  .status-new { background: #dde8ff; } .status-executed { background: #d6f5dd; }
  .status-failed { background: #ffdcdc; } .status-expired { background: #eee; color: #666; }
  .note { margin: 1.25rem 0 0; font-size: .8rem; color: #5b6372; }
  .when { font-size: .85rem; color: #5b6372; overflow-wrap: anywhere; }
  .back { display: inline-block; padding: .5rem 1rem; border-radius: .4rem; background: #1d2330; color: #fff; text-decoration: none; }
  #reason { overflow-wrap: anywhere; }
  @media (max-width: 30rem) { body { padding: 0; } .card { border-radius: 0; box-shadow: none; min-height: 100vh; } .total { font-size: 1.6rem; } }
`;

/**
 * The hosted payment page: what is paid; while it is new, Pay / Decline and what happens if nobody
 * chooses (a payin expires, a payout is executed, at a time on the sandbox's clock, `now` on it);
 * once settled, why a declined one failed, and the way back to the merchant.
 */
export function payPage(tx: Transaction, now: number): string {
  const what = tx.kind === 'payin' ? 'Payment' : 'Payout';
  const controls =
    tx.status !== FIRST_STATUS
      ? `<p id="outcome">This ${what.toLowerCase()} is ${statusBadge(tx.status)}.</p>${declinedReason(tx)}${wayBack(tx)}`
      : `<div class="choices"><form method="post"><input type="hidden" name="action" value="pay"><button type="submit" id="pay">${tx.kind === 'payin' ? 'Pay' : 'Accept payout'}</button></form>
       <form method="post"><input type="hidden" name="action" value="decline"><button type="submit" id="decline">Decline</button></form></div>
       ${unattended(tx, now)}`;
  return cardPage(
    `${what} ${tx.id}`,
    `<h1>${what} <span class="id">${escapeHtml(tx.id)}</span></h1>
     <p class="total" id="amount">${escapeHtml(formatAmount(tx.amountDigits, tx.currency))}</p>
     <dl><dt>Merchant</dt><dd>${foreign(tx.merchantId)}</dd>
     <dt>Reference</dt><dd>${foreign(tx.referenceId ?? '')}</dd>
     <dt>Status</dt><dd>${statusBadge(tx.status)}</dd></dl>${controls}`,
  );
}

/** What the sandbox does to a new transaction nobody pays or declines, and when (its clock). */
function unattended(tx: Transaction, now: number): string {
  const executes = executesAt(tx);
  const [at, happens] = executes === null ? [tx.expiresAt, 'expires'] : [executes, 'is executed'];
  const seconds = Math.max(0, Math.ceil((at - now) / 1000));
  const why = `${executes === null ? '' : 'by the sandbox, '}${duration(Math.round((at - tx.createdAt) / 1000))} after it was created`;
  return `<p class="when" id="unattended">Left alone, it ${happens} at ${timeHtml(at)} on the sandbox's clock (${why}; ${duration(seconds)} from now).</p>`;
}

/** A number of seconds as people say it: `45 s`, `12 min`, `2 h 5 min`. */
function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Why a failed transaction failed: its error code and message. */
function declinedReason(tx: Transaction): string {
  if (tx.status !== 'failed' || (tx.errorCode === null && tx.errorMessage === null)) return '';
  const code = tx.errorCode === null ? '' : ` <code>${foreign(tx.errorCode)}</code>`;
  return `<p id="reason"><strong>Reason:</strong> ${foreign(tx.errorMessage ?? '')}${code}</p>`;
}

/**
 * The way back to the merchant: its success address once executed, its fail address otherwise,
 * when it gave one (an http(s) one: nothing else is put in a link).
 */
function wayBack(tx: Transaction): string {
  const target = tx.status === 'executed' ? tx.redirectUrls.success : tx.redirectUrls.fail;
  const host = target === undefined ? undefined : URL.parse(target)?.host;
  if (target === undefined || !host || !/^https?:\/\//i.test(target)) {
    return '<p class="when" id="back">The merchant gave no address to return to: close this page to go back.</p>';
  }
  return `<p><a class="back" id="back" href="${escapeHtml(target)}">Back to the merchant</a> <span class="when">(${foreign(host)})</span></p>`;
}

/** A page with a message. */
export function resultPage(title: string, message: string): string {
  return cardPage(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/**
 * The admin sign-in page, for a browser the sandbox does not take for its developer's (another
 * machine, a tunnel, or any browser once the sandbox is reachable from elsewhere): one field for
 * the admin token, posted to itself; and the form its script posts a sign-in link's code with
 * (sign-in.ts). The answer sets a cookie.
 */
export function signInPage(problem?: string): string {
  return cardPage(
    'Admin token',
    `<h1>Admin token</h1><p>This sandbox's dashboard needs its admin token here. Open the sign-in link that <code>pay-sandbox</code> printed when it started, or type the admin token it printed.</p>` +
      (problem === undefined ? '' : `<p class="problem">${escapeHtml(problem)}</p>`) +
      `<form method="post" action="sign-in"><label>Token <input name="token" type="password" autocomplete="off" required></label> <button type="submit">Open the dashboard</button></form>` +
      `<form id="link" method="post" action="sign-in" hidden><input type="hidden" name="code"></form>` +
      `<script type="module" src="/_sandbox${SIGN_IN_SCRIPT_PATH}"></script>`,
  );
}

function cardPage(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><style>${CARD_STYLE}</style></head>
<body><main class="card"><p class="brand">Payments sandbox</p>${content}<p class="note">A sandbox: no real money moves.</p></main></body></html>`;
}
