// Server-rendered pages: the dashboard (transactions, deliveries, buttons) and the hosted payment
// page. Every value from a request is escaped; no secret and no card data beyond the last four
// digits is ever written into a page.
import { FINAL_STATUSES, serviceDateTime, type Transaction } from './records.js';
import type { State } from './state.js';
import { redactUrl } from './redact.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text escaped for HTML content and quoted attributes. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const STYLE = `
  :root { font: 14px/1.4 system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  body { margin: 0; }
  header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .75rem 1.25rem; background: #1d2330; color: #fff; }
  header h1 { font-size: 1.1rem; margin: 0 1rem 0 0; }
  header button, header input { font: inherit; }
  main { padding: 1rem 1.25rem; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
  th { font-weight: 600; background: #eef0f3; }
  tr.deliveries td { background: #fafbfc; padding-left: 2rem; }
  tr.deliveries table { font-size: 12px; }
  .status { font-weight: 600; padding: .1rem .4rem; border-radius: .25rem; background: #e3e6ea; }
  .status-new { background: #dde8ff; } .status-executed { background: #d6f5dd; }
  .status-failed { background: #ffdcdc; } .status-expired { background: #eee; color: #666; }
  .ok { color: #137333; } .bad { color: #b3261e; } .due { color: #666; }
  code { font-size: 12px; }
  #notice { min-height: 1.2em; color: #ffb4ab; }
  .empty { padding: 2rem; text-align: center; color: #666; background: #fff; }
`;

// A little script, no build step: buttons call the admin API, and the page re-renders its main
// part whenever the change feed says something changed.
const SCRIPT = `
const notice = document.getElementById('notice');
async function call(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  if (!response.ok) {
    const error = await response.json().catch(() => ({}));
    notice.textContent = (error.error && error.error.message) || ('HTTP ' + response.status);
  } else notice.textContent = '';
  refresh();
}
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const d = button.dataset;
  if (d.action === 'status') call('/_sandbox/' + d.kind + '/' + d.id + '/status', { status: d.status });
  else if (d.action === 'resend') call('/_sandbox/' + d.kind + '/' + d.id + '/resend');
  else if (d.action === 'advance') call('/_sandbox/clock/advance', { seconds: Number(d.seconds || document.getElementById('seconds').value) });
  else if (d.action === 'reset') call('/_sandbox/reset');
});
// The page shows the state at the version written on <main>; the change feed announces each new
// version (the current one first, on every connection), and the page catches up when it differs.
let latest = 0;
let pending = false;
async function refresh() {
  if (pending) return;
  pending = true;
  try {
    const page = new DOMParser().parseFromString(await (await fetch(location.pathname)).text(), 'text/html');
    for (const id of ['main', 'clock']) document.getElementById(id).replaceWith(page.getElementById(id));
  } finally { pending = false; }
  if (shown() < latest) refresh();
}
const shown = () => Number(document.getElementById('main').dataset.version);
new EventSource('/_sandbox/events').addEventListener('change', (event) => {
  latest = Math.max(latest, Number(event.data));
  if (shown() < latest) setTimeout(refresh, 50);
});
`;

function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status)}">${escapeHtml(status)}</span>`;
}

function actions(tx: Transaction): string {
  const kind = tx.kind === 'payin' ? 'payins' : 'payouts';
  const button = (action: string, label: string, extra = '') =>
    `<button type="button" data-action="${action}" data-kind="${kind}" data-id="${escapeHtml(tx.id)}"${extra}>${label}</button>`;
  const open = !FINAL_STATUSES.has(tx.status);
  return [
    open ? button('status', 'Execute', ' data-status="executed"') : '',
    open ? button('status', 'Fail', ' data-status="failed"') : '',
    open ? button('status', 'Expire', ' data-status="expired"') : '',
    button('resend', 'Resend last webhook'),
  ].join(' ');
}

function deliveriesTable(state: State, tx: Transaction): string {
  const attempts = state.deliveries.list(tx.id);
  if (attempts.length === 0) return '<span class="due">no webhooks</span>';
  const rows = attempts
    .map((a) => {
      const answer =
        a.response_status !== null
          ? `<span class="${a.response_status >= 200 && a.response_status < 300 ? 'ok' : 'bad'}">${a.response_status}</span>`
          : a.error !== null
            ? `<span class="bad">${escapeHtml(a.error)}</span>`
            : `<span class="due">${a.sent_at === null ? 'due' : 'sending'}</span>`;
      return `<tr data-attempt="${a.attempt}" data-webhook-status="${escapeHtml(a.status)}"><td>${escapeHtml(a.status)}</td><td>${a.attempt}</td><td>${a.due_at}</td><td>${a.sent_at ?? ''}</td><td class="answer">${answer}</td><td><code>${escapeHtml(redactUrl(a.url))}</code></td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>webhook</th><th>attempt</th><th>due</th><th>sent</th><th>answer</th><th>to</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function transactionRows(state: State, tx: Transaction): string {
  const fee = tx.fee === null ? '' : `${tx.fee.amount} ${escapeHtml(tx.fee.currency)}`;
  const card = tx.cardLast4 === null ? '' : `•••• ${escapeHtml(tx.cardLast4)}`;
  const error = tx.errorCode === null ? '' : `<br><small class="bad">${escapeHtml(tx.errorCode)}: ${escapeHtml(tx.errorMessage ?? '')}</small>`;
  return `<tr class="transaction" data-transaction="${escapeHtml(tx.id)}">
  <td><code>${escapeHtml(tx.id)}</code><br><small>${tx.kind} · ${escapeHtml(tx.merchantId)}</small></td>
  <td>${escapeHtml(tx.referenceId ?? '')}</td>
  <td class="status-cell">${statusBadge(tx.status)}${error}</td>
  <td>${tx.amount} ${escapeHtml(tx.currency)}</td>
  <td>${fee}</td>
  <td>${escapeHtml(tx.customer)}${card ? `<br><small>${card}</small>` : ''}</td>
  <td><small>created ${serviceDateTime(tx.createdAt)}<br>updated ${serviceDateTime(tx.updatedAt)}<br>expires ${serviceDateTime(tx.expiresAt)}</small></td>
  <td>${actions(tx)}</td>
</tr>
<tr class="deliveries" data-deliveries="${escapeHtml(tx.id)}"><td colspan="8">${deliveriesTable(state, tx)}</td></tr>`;
}

/** How many transactions the dashboard shows (the newest). */
export const DASHBOARD_ROWS = 200;

/** The dashboard: the newest transactions with its webhook attempts, and the controls. */
export function dashboardPage(state: State, base: string): string {
  const transactions = [...state.transactions.values()].slice(-DASHBOARD_ROWS).reverse();
  const body =
    transactions.length === 0
      ? `<p class="empty">No transactions yet. Create a payin with a signed <code>POST ${escapeHtml(base)}/v2/merchants/payins/</code>.</p>`
      : `<table><thead><tr><th>transaction</th><th>reference</th><th>status</th><th>amount</th><th>fee</th><th>customer</th><th>times</th><th>actions</th></tr></thead>
<tbody>${transactions.map((tx) => transactionRows(state, tx)).join('\n')}</tbody></table>`;
  const merchants = [...state.merchants.keys()].map((id) => `<code>${escapeHtml(id)}</code>`).join(', ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payments sandbox</title><style>${STYLE}</style></head>
<body>
<header>
  <h1>Payments sandbox</h1>
  <span>clock <time id="clock">${serviceDateTime(state.schedule.now())}</time></span>
  <span>advance
    <button type="button" data-action="advance" data-seconds="900">+15 min</button>
    <button type="button" data-action="advance" data-seconds="1800">+30 min</button>
    <button type="button" data-action="advance" data-seconds="3600">+1 h</button>
    <input id="seconds" type="number" min="0" value="60" style="width: 6rem" aria-label="seconds"> s
    <button type="button" data-action="advance" data-seconds="">Advance</button>
  </span>
  <button type="button" data-action="reset">Reset</button>
  <span>merchants ${merchants}</span>
  <span id="notice" role="status"></span>
</header>
<main id="main" data-version="${state.version}">${body}</main>
<script type="module">${SCRIPT}</script>
</body></html>`;
}

/** The hosted payment page: what is paid, and Pay / Decline while it is still new. */
export function payPage(tx: Transaction): string {
  const what = tx.kind === 'payin' ? 'Payment' : 'Payout';
  const decided = tx.status !== 'new';
  const controls = decided
    ? `<p>This ${what.toLowerCase()} is ${statusBadge(tx.status)}.</p>`
    : `<form method="post"><input type="hidden" name="action" value="pay"><button type="submit" id="pay">${tx.kind === 'payin' ? 'Pay' : 'Accept payout'}</button></form>
       <form method="post"><input type="hidden" name="action" value="decline"><button type="submit" id="decline">Decline</button></form>`;
  return page(
    `${what} ${tx.id}`,
    `<dl><dt>Amount</dt><dd id="amount">${tx.amount} ${escapeHtml(tx.currency)}</dd>
     <dt>Merchant</dt><dd>${escapeHtml(tx.merchantId)}</dd>
     <dt>Reference</dt><dd>${escapeHtml(tx.referenceId ?? '')}</dd>
     <dt>Status</dt><dd>${statusBadge(tx.status)}</dd></dl>${controls}`,
  );
}

/** A page with a message. */
export function resultPage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`);
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE} .card { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 1.5rem; border-radius: .5rem; }
form { display: inline-block; margin-right: .5rem; } button { font: inherit; padding: .5rem 1.25rem; } dt { font-weight: 600; }</style></head>
<body><div class="card"><h1>${escapeHtml(title)}</h1>${content}<p><small>Payments sandbox: no real money moves.</small></p></div></body></html>`;
}
