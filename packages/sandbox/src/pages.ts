// Server-rendered pages: the dashboard (transactions, deliveries, buttons, filters) and the hosted
// payment page, plus what every page shares (escaping, the style, the header, times and amounts).
// Every value from a request is escaped, and text a merchant wrote sits in <bdi> so a direction
// override in it cannot reorder the rest of the page. No secret and no card data beyond the last
// four digits is ever written into a page.
import { systemClock } from '@pay/clock';
import { FIRST_STATUS, isTerminalStatus, KNOWN_STATUSES } from '@pay/schema';
import { formatAmount, serviceMs } from './format.js';
import { formatTime } from './format-time.js';
import { PAGE_SCRIPT_PATH } from './page-script.js';
import { SIGN_IN_SCRIPT_PATH } from './sign-in-script.js';
import { executesAt, type Transaction } from './records.js';
import type { State } from './state.js';
import { maskedCut, maskText } from './masking.js';
import { ADMIN_STYLE, CARD_STYLE } from './page-style.js';
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

/**
 * The clock a time is on. The pages show two, which part after an advance: the schedule clock
 * (records, webhook attempts, timelines; it runs with the sandbox's clock and `advance` moves it
 * forward) and the sandbox's own clock, when a request arrived (the wall clock unless a test gave
 * the sandbox a clock of its own).
 */
export interface ClockName {
  key: 'schedule' | 'wall' | 'sandbox';
  /** As a label says it: `schedule clock`. */
  name: string;
}

/** The schedule clock. */
export const SCHEDULE_CLOCK: ClockName = { key: 'schedule', name: 'schedule clock' };

/** The clock requests arrive on: the wall clock, unless the sandbox was given a clock of its own. */
export function arrivalClock(state: State): ClockName {
  return state.schedule.clock === systemClock ? { key: 'wall', name: 'wall clock' } : { key: 'sandbox', name: "sandbox's clock" };
}

/** A clock's name as a label beside a heading or a time: `<small class="clock-name">schedule clock</small>`. */
export function clockLabel(clock: ClockName): string {
  return `<small class="clock-name">${escapeHtml(clock.name)}</small>`;
}

/**
 * A time as people read it (`2026-11-23 20:24:49 UTC`), with the full ISO value and the clock it is
 * on in the markup (`data-clock`, and the tooltip).
 */
export function timeHtml(ms: number, clock: ClockName, id = ''): string {
  const shown = formatTime(ms);
  if (shown === '') return '';
  const iso = new Date(ms).toISOString();
  return `<time${id ? ` id="${escapeHtml(id)}"` : ''} datetime="${iso}" title="${iso}, ${escapeHtml(clock.name)}" data-clock="${clock.key}">${shown}</time>`;
}

/** A path or URL, with a line break allowed after each `/`, `?` and `&` (`<wbr>`), before any other. */
export function pathHtml(path: string): string {
  return `<bdi>${escapeHtml(path).replace(/([/?]|&amp;)(?=.)/g, '$1<wbr>')}</bdi>`;
}

/** An id, a reference or an e-mail address: read and copied whole, never broken mid-word on a wide screen. */
export function identHtml(value: unknown): string {
  return `<span class="ident">${foreign(value)}</span>`;
}

/** An amount with its currency's decimals, never broken across lines. */
export function amountHtml(amount: number | string, currency: string): string {
  return `<span class="amount">${escapeHtml(formatAmount(amount, currency))}</span>`;
}

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
<title>${escapeHtml(parts.title)}</title><link rel="icon" href="data:,"><style>${ADMIN_STYLE}</style>
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

/** A button of a transaction; the page script calls the admin API with its data. */
function actionButton(tx: Transaction, action: string, label: string, extra = ''): string {
  const kind = tx.kind === 'payin' ? 'payins' : 'payouts';
  return `<button type="button" data-action="${action}" data-kind="${kind}" data-id="${escapeHtml(tx.id)}"${extra}>${label}</button>`;
}

/** The button that resends a transaction's last webhook. */
function resendButton(tx: Transaction): string {
  return actionButton(tx, 'resend', 'Resend last webhook');
}

/**
 * The buttons that change a transaction (while it is open), and unless `resend` is false the one
 * that resends its last webhook (the dashboard puts that one with the webhook attempts).
 */
export function transactionActions(tx: Transaction, resend = true): string {
  const open = !isTerminalStatus(tx.status);
  return [
    open ? actionButton(tx, 'status', 'Execute', ' data-status="executed"') : '',
    open ? actionButton(tx, 'status', 'Fail', ' data-status="failed"') : '',
    open ? actionButton(tx, 'status', 'Expire', ' data-status="expired"') : '',
    resend ? resendButton(tx) : '',
  ]
    .filter(Boolean)
    .join(' ');
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

/** Attempts shown unfolded under a transaction; past this many they fold into one line. */
const ATTEMPTS_UNFOLDED = 3;

/** The one line of folded attempts: `10 webhook attempts, last: 500`. */
function attemptsSummary(ordered: readonly DeliveryAttempt[]): string {
  const last = ordered.at(-1)!;
  const count = `${ordered.length} webhook attempt${ordered.length === 1 ? '' : 's'}`;
  return `${count}, last: ${attemptAnswerHtml(last)}`;
}

/**
 * A transaction's webhook attempts in the order they happen, folded (a closed `<details>` whose
 * summary says how many and the last answer) past ATTEMPTS_UNFOLDED: a receiver that failed a
 * whole retry schedule would otherwise push every other transaction off the first screen.
 */
function deliveriesTable(tx: Transaction, attempts: readonly DeliveryAttempt[]): string {
  if (attempts.length === 0) return `<span class="due">no webhooks</span> ${resendButton(tx)}`;
  const ordered = attemptsInTimeOrder(attempts);
  const rows = ordered
    .map(
      (a) =>
        `<tr data-attempt="${a.attempt}" data-webhook-status="${escapeHtml(a.status)}"><td data-label="webhook">${escapeHtml(a.status)}</td><td class="num" data-label="attempt">${a.attempt}</td>` +
        `<td data-label="due (schedule clock)">${timeHtml(serviceMs(a.due_at), SCHEDULE_CLOCK)}</td><td data-label="sent (schedule clock)">${a.sent_at === null ? '' : timeHtml(serviceMs(a.sent_at), SCHEDULE_CLOCK)}</td>` +
        `<td class="answer" data-label="answer">${attemptAnswerHtml(a)}</td><td data-label="to"><code class="text">${foreign(maskText(a.url))}</code></td></tr>`,
    )
    .join('');
  const clock = clockLabel(SCHEDULE_CLOCK);
  const table = `<div class="scroll"><table class="attempts"><thead><tr><th>webhook</th><th>attempt</th><th>due ${clock}</th><th>sent ${clock}</th><th>answer</th><th>to</th></tr></thead><tbody>${rows}</tbody></table></div>`;
  // An id, so a fold the reader opened stays open when the page refreshes itself.
  const open = ordered.length <= ATTEMPTS_UNFOLDED ? ' open' : '';
  // The resend button sits in the summary: a click on it does not fold or unfold the attempts.
  return `<details class="attempts" id="attempts-${escapeHtml(tx.id)}"${open}><summary>${attemptsSummary(ordered)} ${resendButton(tx)}</summary>${table}</details>`;
}

function transactionLinks(tx: Transaction, webhooks: number): string {
  const id = encodeURIComponent(tx.id);
  const hosted = tx.nextAction.type === 'redirect' ? `<a href="/_sandbox/pay/${id}" data-link="hosted">hosted page</a>` : '';
  return `<span class="links">${hosted}<a href="#deliveries-${id}" data-link="deliveries">webhooks (${webhooks})</a><a href="/_sandbox/timeline/${id}" data-link="timeline">timeline</a></span>`;
}

/**
 * `Jane Doe <jane@shop.example>`: the name may wrap between its words; the address, on a wide
 * screen, only before its `@` (each half whole), so a long one does not widen the table past the
 * page.
 */
function customerHtml(customer: string): string {
  const parts = /^(.*) <([^<>]*)@([^<>@]*)>$/s.exec(customer);
  if (parts === null) return foreign(customer);
  const [, name, local, domain] = parts;
  return `${foreign(name)} <span class="email">${identHtml(`<${local}`)}<wbr>${identHtml(`@${domain}>`)}</span>`;
}

function transactionRows(state: State, tx: Transaction): string {
  const attempts = state.deliveries.list(tx.id);
  const fee = tx.fee === null ? '' : amountHtml(tx.fee.amount, tx.fee.currency);
  const card = tx.cardLast4 === null ? '' : `<br><small>•••• ${escapeHtml(tx.cardLast4)}</small>`;
  const error =
    tx.errorCode === null ? '' : `<br><small class="bad text">${foreign(tx.errorCode)}: ${foreign(tx.errorMessage ?? '')}</small>`;
  const id = escapeHtml(tx.id);
  const at = (ms: number) => timeHtml(ms, SCHEDULE_CLOCK);
  return `<tr class="transaction" id="tx-${id}" data-transaction="${id}">
  <td><code class="ident">${id}</code><br><small>${tx.kind} · <span class="ident">${escapeHtml(tx.merchantId)}</span></small><br>${transactionLinks(tx, attempts.length)}</td>
  <td class="text reference" data-label="reference">${tx.referenceId === null ? '' : identHtml(tx.referenceId)}</td>
  <td class="status-cell pair" data-label="status">${statusBadge(tx.status)}${error}</td>
  <td class="num pair" data-label="amount">${amountHtml(tx.amountDigits, tx.currency)}</td>
  <td class="num pair" data-label="fee">${fee}</td>
  <td class="text customer" data-label="customer">${customerHtml(tx.customer)}${card}</td>
  <td class="nowrap" data-label="times (schedule clock)"><small>created ${at(tx.createdAt)}<br>updated ${at(tx.updatedAt)}<br>expires ${at(tx.expiresAt)}</small></td>
  <td><div class="actions">${transactionActions(tx, false)}</div></td>
</tr>
<tr class="deliveries" id="deliveries-${id}" data-deliveries="${id}"><td colspan="8">${deliveriesTable(tx, attempts)}</td></tr>`;
}

/**
 * How far an advance moved the schedule clock ahead of the sandbox's own (`1 h 2 min ahead of the
 * wall clock`); empty when it is not ahead. Always there, so a page that refreshes itself updates it.
 */
function ahead(state: State): string {
  const seconds = Math.round(state.schedule.offset / 1000);
  const said = seconds <= 0 ? '' : `${duration(seconds)} ahead of the ${escapeHtml(arrivalClock(state).name)}`;
  return ` <small class="clock-name" id="clock-ahead">${said}</small>`;
}

/** The schedule clock, how far an advance moved it ahead, and the buttons that move it. */
export function clockTools(state: State): string {
  return `<span>schedule clock ${timeHtml(state.schedule.now(), SCHEDULE_CLOCK, 'clock')}${ahead(state)}</span>
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
        : `<div class="scroll panel"><table class="list"><thead><tr><th>transaction</th><th>reference</th><th>status</th><th class="num">amount</th><th class="num">fee</th><th>customer</th><th>times ${clockLabel(SCHEDULE_CLOCK)}</th><th>actions</th></tr></thead>
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
  return `<p class="when" id="unattended">Left alone, it ${happens} at ${timeHtml(at, SCHEDULE_CLOCK)} on the sandbox's schedule clock (${why}; ${duration(seconds)} from now).</p>`;
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
