// The dashboard (`/_sandbox/`): the transactions, newest first, with their deliveries, the
// buttons that move them on, the schedule clock's tools and the filters.
import { isTerminalStatus, KNOWN_STATUSES } from '@pay/schema';
import { adminPage } from './admin-layout.js';
import type { DeliveryAttempt } from './deliveries.js';
import { serviceMs } from './format.js';
import {
  amountHtml,
  escapeHtml,
  foreign,
  identHtml,
  SCHEDULE_CLOCK,
  timeHtml,
  arrivalClock,
  clockLabel,
  duration,
  statusBadge,
} from './html-kit.js';
import { maskText } from './masking.js';
import { countLine, filterForm, readFilters, textField, selectField } from './page-filters.js';
import type { Transaction } from './records.js';
import type { State } from './state.js';

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
