// The shop's pages: server-rendered HTML, no script. Every value goes through `html`, which
// escapes it. Elements tests look for carry ids and data attributes, not just text.
import { formatTime, PAYOUT_EXECUTION_SECONDS } from '@pay/sandbox/admin';
import type { Product, TestCard } from './catalog.js';
import { Html, html } from './html.js';
import type { Order, OrderEvent, OrderStatus } from './orders.js';

// Fits a phone: long names break anywhere rather than widen the page (in a table, on a wide screen,
// only a customer's name does: other words break only when one alone is wider than its column, so
// the table never squeezes "payout" into "payo ut"), form controls are never wider
// than the page, and below 40rem a list's rows (orders, events) are stacked, each cell under its
// column's name (data-label), instead of columns. References and transaction ids (.ident) are read
// and copied whole: on a wide screen never broken across lines (a table squeezing its columns would
// break them mid-word), one too long for its box scrolling inside it; on a phone they wrap.
const STYLE = `
*,::before,::after{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;max-width:68rem;margin:2rem auto;padding:0 1rem;color:#222;overflow-wrap:anywhere}
nav a{margin-right:1rem}h1{font-size:1.6rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}.nowrap{white-space:nowrap}
th{overflow-wrap:normal}td{overflow-wrap:break-word}td.free{overflow-wrap:anywhere}input,select,button{font:inherit;max-width:100%}
.ident{display:inline-block;max-width:min(100%,24rem);white-space:nowrap;overflow-x:auto;overflow-y:hidden;vertical-align:bottom}
.clock{font-size:.8rem;color:#666;font-weight:400}time{white-space:nowrap}
@media (max-width:40rem){body{margin:1rem auto}
.ident{display:inline;white-space:normal;overflow:visible}td{overflow-wrap:anywhere}
table.rows thead{display:none}table.rows tr{display:block;border-bottom:1px solid #ddd;padding:.4rem 0}
table.rows td{display:block;border:0;padding:.1rem .4rem}table.rows td:empty{display:none}
table.rows td[data-label]::before{content:attr(data-label) ": ";color:#666}}
.product{border:1px solid #ddd;border-radius:6px;padding:1rem;margin:1rem 0}
.status{display:inline-block;padding:.1rem .5rem;border-radius:4px;background:#eee}
.paid{background:#d7f5dd}.failed,.expired,.not_created{background:#fbdada}.pending,.unknown{background:#fff3c4}
.errors{color:#a00}label{display:block;margin:.4rem 0}small{color:#666}`;
// A constant of this file, not data: inserted as is.
const STYLE_SHEET = new Html(STYLE);

const SHOP_NAME = 'Example shop';

/**
 * How a page waiting for the payments service checks again, without a script: it reloads itself
 * (`<meta http-equiv="refresh">`) every second while a webhook normally arrives, then less and
 * less often, and stops after about nine minutes, saying so. An unpaid payin may wait 30 minutes
 * for its customer: a page reloading every second all that time costs the shop a query a second
 * per open tab. Each stage: the wait in seconds, and how many reloads wait that long.
 */
const RELOAD_STAGES: readonly (readonly [seconds: number, times: number])[] = [
  [1, 20],
  [2, 10],
  [5, 12],
  [15, 8],
  [30, 10],
];

/** Seconds before reload number `done + 1`, or undefined once the page has reloaded enough. */
function reloadDelay(done: number): number | undefined {
  let left = done;
  for (const [seconds, times] of RELOAD_STAGES) {
    if (left < times) return seconds;
    left -= times;
  }
  return undefined;
}

/** How long a page keeps checking by itself, in whole minutes (for the sentence when it stops). */
const CHECKING_MINUTES = Math.round(RELOAD_STAGES.reduce((total, [seconds, times]) => total + seconds * times, 0) / 60);

/** The query parameter counting a page's reloads. */
export const RELOADS = 'reloads';

/** How many times a page has reloaded itself so far, from its query (`?reloads=N`); 0 when absent or unreadable. */
export function reloadsDone(value: string | undefined): number {
  return value !== undefined && /^[0-9]{1,4}$/.test(value) ? Number(value) : 0;
}

/** A page still waiting for the service: its address (without query), and its reloads so far. */
interface Waiting {
  path: string;
  reloads: number;
}

/** A whole page. `waiting`: it reloads itself until what it shows is settled (RELOAD_STAGES). */
function layout(title: string, body: Html, options: { waiting?: Waiting | undefined } = {}): Html {
  const { waiting } = options;
  const delay = waiting === undefined ? undefined : reloadDelay(waiting.reloads);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${waiting !== undefined && delay !== undefined ? html`<meta http-equiv="refresh" content="${delay}; url=${waiting.path}?${RELOADS}=${waiting.reloads + 1}">` : ''}
<title>${title === SHOP_NAME ? title : `${title} · ${SHOP_NAME}`}</title><style>${STYLE_SHEET}</style></head>
<body><nav><a href="/">Shop</a><a href="/orders">Orders</a><a href="/payouts/new">Payouts</a></nav>
<h1>${title}</h1>
${
  waiting !== undefined && delay === undefined
    ? html`<p id="stopped">Still waiting for the payments service after about ${CHECKING_MINUTES} minutes: this page no longer reloads by itself. <a href="${waiting.path}">Reload it</a> to check again.</p>`
    : ''
}
${body}
</body></html>`;
}

const money = (amount: string, currency: string) => `${amount} ${currency}`;

/** A reference or an id: never broken mid-word on a wide screen. */
const ident = (value: string | undefined) => (value === undefined ? '' : html`<span class="ident">${value}</span>`);

/**
 * Which clock a time of the shop is on. Orders are stamped by the database (this machine's clock,
 * the wall clock); the journal records events on its clock, which follows the sandbox's schedule
 * clock when the shop runs against the sandbox with SHOP_SANDBOX_CLOCK=1 (`pnpm demo`): after an
 * advance on the sandbox's dashboard, the two part.
 */
export type JournalClock = 'wall' | 'sandbox';

const CLOCK_NAMES: Readonly<Record<JournalClock, string>> = { wall: 'wall clock', sandbox: "the sandbox's schedule clock" };

/** A time as the sandbox's pages write it (`2026-11-23 20:24:49 UTC`), the ISO value and its clock in the markup. */
function timeHtml(at: Date, clock: JournalClock): Html {
  return html`<time datetime="${at.toISOString()}" title="${at.toISOString()}, ${CLOCK_NAMES[clock]}" data-clock="${clock}">${formatTime(at.getTime())}</time>`;
}

/** A clock's name beside a heading. */
const clockLabel = (clock: JournalClock) => html`<small class="clock">${CLOCK_NAMES[clock]}</small>`;

/** The product page: a Pay button (the hosted payment page) and a card checkout per product. */
export function productPage(products: readonly Product[], cards: readonly TestCard[]): Html {
  return layout(
    SHOP_NAME,
    html`<p>Pay on the payment service's page, or by card right here (test cards only).</p>
${products.map(
  (p) => html`<section class="product" data-product="${p.id}">
<h2>${p.name}</h2><p>${money(p.price, p.currency)}</p>
<form method="post" action="/checkout"><input type="hidden" name="product" value="${p.id}">
<button type="submit" data-action="pay">Pay</button></form>
<form method="post" action="/checkout/card"><input type="hidden" name="product" value="${p.id}">
<label>Test card <select name="card">${cards.map((c) => html`<option value="${c.id}">${c.label}</option>`)}</select></label>
<button type="submit" data-action="pay-card">Pay by card</button></form>
</section>`,
)}`,
  );
}

const PAYIN_LABELS: Record<OrderStatus, string> = {
  pending: 'Awaiting payment',
  unknown: 'Being confirmed',
  not_created: 'Not created',
  paid: 'Paid',
  failed: 'Payment failed',
  expired: 'Expired',
};
const PAYOUT_LABELS: Record<OrderStatus, string> = {
  ...PAYIN_LABELS,
  pending: 'Payout pending',
  paid: 'Paid out',
  failed: 'Payout failed',
};

function statusBadge(order: Order): Html {
  const label = (order.kind === 'payout' ? PAYOUT_LABELS : PAYIN_LABELS)[order.status];
  return html`<span class="status ${order.status}" data-status="${order.status}">${label}</span>`;
}

/** Still waiting for the payments service: the page reloads itself. */
const unsettled = (order: Order) => order.status === 'pending' || order.status === 'unknown';

const orderHref = (order: Order) => `/orders/${encodeURIComponent(order.reference)}`;

/** All orders, newest first; `reloads`: how many times the page reloaded itself while one waits. */
export function ordersPage(orders: readonly Order[], reloads = 0): Html {
  const rows = orders.map(
    (o) => html`<tr data-order="${o.reference}" data-status="${o.status}">
<td data-label="Reference"><a href="${orderHref(o)}">${ident(o.reference)}</a></td><td class="nowrap" data-label="Kind">${o.kind}</td>
<td data-label="What">${o.description}</td><td class="free" data-label="Customer">${o.customerName}</td>
<td class="nowrap" data-label="Amount">${money(o.amount, o.currency)}</td><td data-label="Status">${statusBadge(o)}</td>
<td data-label="Transaction">${ident(o.transactionId)}</td></tr>`,
  );
  return layout(
    'Orders',
    orders.length === 0
      ? html`<p>No orders yet.</p>`
      : html`<table class="rows"><thead><tr><th>Reference</th><th>Kind</th><th>What</th><th>Customer</th><th>Amount</th><th>Status</th><th>Transaction</th></tr></thead>
<tbody>${rows}</tbody></table>`,
    { waiting: orders.some(unsettled) ? { path: '/orders', reloads } : undefined },
  );
}

/** Where the customer came from: the payment page's success or fail redirect. */
export type Arrival = 'success' | 'fail' | undefined;

/** What the customer coming back from the payment page is told: the order's status decides. */
function arrivalText(order: Order, arrival: 'success' | 'fail'): string {
  if (order.status === 'paid') return 'Thank you! Your payment is confirmed.';
  if (unsettled(order)) {
    return arrival === 'success'
      ? 'Thank you! We are waiting for the payment service to confirm your payment; this page updates by itself.'
      : 'The payment was not completed. We are waiting for the payment service to confirm; this page updates by itself.';
  }
  return 'The payment was not completed. Nothing was charged.';
}

/** What each source of an event is, for people. */
const SOURCES: Readonly<Record<string, string>> = {
  create: "the create's answer",
  webhook: 'a webhook',
  recovery: "recovery at start-up (the create's answer was lost)",
  reconciler: "the reconciler's lookup",
};

/** What an event did, when it did not simply become the status. */
const OUTCOMES: Readonly<Record<string, string>> = {
  delivered: 'recorded; the settled status stays',
  stale: 'ignored: it arrived after a settled status',
};

/** The reason shown for an order, when there is one. */
function reason(order: Order): string | undefined {
  if (order.status === 'not_created') return 'The payment was not created. Nothing was charged.';
  return order.failureReason;
}

/**
 * One order, with its journal events (status, source, time). Reloads itself while the order is not
 * settled (`reloads`: how many times it has so far). `journalClock`: which clock the journal
 * records events on.
 */
export function orderPage(
  order: Order,
  events: readonly OrderEvent[],
  arrival: Arrival,
  reloads = 0,
  journalClock: JournalClock = 'wall',
): Html {
  const title = arrival === 'success' ? 'Thank you' : arrival === 'fail' ? 'Payment not completed' : `Order ${order.reference}`;
  const why = reason(order);
  const history = events.map(
    (e) => html`<tr data-event="${e.status}" data-source="${e.source}" data-outcome="${e.outcome}">
<td data-label="Recorded (${CLOCK_NAMES[journalClock]})">${timeHtml(e.recordedAt, journalClock)}</td>
<td data-label="Status">${e.status}</td><td data-label="Learnt from">${SOURCES[e.source] ?? e.source}</td><td>${OUTCOMES[e.outcome] ?? ''}</td></tr>`,
  );
  return layout(
    title,
    html`${arrival ? html`<p id="arrival" data-arrival="${arrival}">${arrivalText(order, arrival)}</p>` : ''}
<table id="order" data-order="${order.reference}">
<tr><th>Reference</th><td>${ident(order.reference)}</td></tr>
<tr><th>What</th><td>${order.description}</td></tr>
<tr><th>${order.kind === 'payout' ? 'Paid to' : 'Customer'}</th><td class="free">${order.customerName}</td></tr>
<tr><th>Amount</th><td>${money(order.amount, order.currency)}</td></tr>
${order.cardLast4 ? html`<tr><th>Card</th><td>ending ${order.cardLast4}</td></tr>` : ''}
<tr><th>Status</th><td id="status">${statusBadge(order)}</td></tr>
${why ? html`<tr><th>Reason</th><td id="reason">${why}</td></tr>` : ''}
<tr><th>Transaction</th><td>${ident(order.transactionId)}</td></tr>
<tr><th>Ordered ${clockLabel('wall')}</th><td>${timeHtml(order.createdAt, 'wall')}</td></tr>
</table>
${order.kind === 'payout' && unsettled(order) ? payoutDue(order) : ''}
<h2>What the payments service said</h2>
${
  events.length === 0
    ? html`<p id="history">Nothing yet.</p>`
    : html`<table id="history" class="rows"><thead><tr><th>Recorded ${clockLabel(journalClock)}</th><th>Status</th><th>Learnt from</th><th></th></tr></thead><tbody>${history}</tbody></table>`
}`,
    { waiting: unsettled(order) ? { path: `${orderHref(order)}${arrival ? `/${arrival}` : ''}`, reloads } : undefined },
  );
}

/**
 * When a pending payout settles: the payments service decides; the sandbox (what this example
 * runs against) executes one left alone PAYOUT_EXECUTION_SECONDS after its creation, its own
 * setting, read from the package rather than copied here.
 */
function payoutDue(order: Order): Html {
  const due = new Date(order.createdAt.getTime() + PAYOUT_EXECUTION_SECONDS * 1000);
  return html`<p id="payout-due">The payments service executes the payout. The sandbox executes one nobody declines ${PAYOUT_EXECUTION_SECONDS} s after its creation: about ${timeHtml(due, 'wall')} on the wall clock. This page updates by itself.</p>`;
}

/** What the payout form was given, shown again with the errors when the client refused it. */
export interface PayoutForm {
  first_name: string;
  last_name: string;
  email: string;
  country_code: string;
  phone: string;
  amount: string;
  currency: string;
}

export const EMPTY_PAYOUT_FORM: PayoutForm = Object.freeze({
  first_name: '',
  last_name: '',
  email: '',
  country_code: '+33',
  phone: '612345678',
  amount: '',
  currency: 'EUR',
});

/** The payout form. In a real shop this sits behind the back office's login. */
export function payoutPage(form: PayoutForm, errors: readonly { path: string; message: string }[] = []): Html {
  const field = (name: keyof PayoutForm, label: string, type = 'text') =>
    html`<label>${label} <input type="${type}" name="${name}" value="${form[name]}" required></label>`;
  return layout(
    'Send a payout',
    html`${
      errors.length
        ? html`<ul class="errors" id="errors">${errors.map((e) => html`<li data-path="${e.path}">${e.path}: ${e.message}</li>`)}</ul>`
        : ''
    }
<form method="post" action="/payouts">
${field('first_name', 'First name')}${field('last_name', 'Last name')}${field('email', 'Email', 'email')}
${field('country_code', 'Phone country code')}${field('phone', 'Phone number')}
${field('amount', 'Amount')}${field('currency', 'Currency')}
<button type="submit" data-action="payout">Send payout</button>
</form>`,
  );
}

/** A short page for an error or a missing order. */
export function messagePage(title: string, text: string, link?: { href: string; label: string }): Html {
  return layout(title, html`<p id="message">${text}</p>${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}`);
}
