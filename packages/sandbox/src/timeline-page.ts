// A transaction's page (`GET /_sandbox/timeline/<id>`): the transaction now, and its timeline as a
// vertical list, oldest first: each request about it with its answer (and a link to it in the
// request log), each status change and what caused it, each resend, each webhook attempt with the
// receiver's answer and when the next one is due. It refreshes by itself, like the other pages.
// Everything a merchant or a request sent is escaped and isolated (foreign()).
import { ENDPOINTS } from '@pay/schema';
import { MAX_ATTEMPTS } from './deliveries.js';
import { html, type Reply } from './http.js';
import { serviceMs } from './format.js';
import { maskedCut } from './masking.js';
import { adminPage } from './admin-layout.js';
import { attemptAnswerHtml, clockTools, transactionActions } from './dashboard-page.js';
import { amountHtml, clockLabel, escapeHtml, foreign, identHtml, pathHtml, SCHEDULE_CLOCK, statusBadge, timeHtml } from './html-kit.js';
import { MAX_HISTORY_KEPT, type Cause, type Transaction } from './records.js';
import { MAX_LOGGED_REQUESTS } from './request-log.js';
import { detailsHtml, requestAnswerHtml } from './requests-page.js';
import type { State } from './state.js';
import { timelineOf } from './timeline.js';
import type { TimelineEntry, TimelineRequest, TimelineStatus, TimelineWebhook } from './wire/timeline.js';

/** Answers the page of transaction `id` (raw, from the path): 200 with its timeline, or a 404 page. */
export function timelinePage(state: State, id: string): Reply {
  const tx = state.transactions.get(id);
  if (tx === undefined) {
    return html(
      404,
      adminPage({
        title: 'Unknown transaction · Payments sandbox',
        current: null,
        tools: clockTools(state),
        filters: '',
        version: state.version,
        main: `<p class="empty">No transaction <code class="text">${foreign(maskedCut(id, 100))}</code> in the sandbox: a reset forgets every transaction, and past its limit the sandbox forgets the oldest.</p>`,
      }),
    );
  }
  const { entries } = timelineOf(state, tx);
  const list = entries.map((entry) => entryHtml(tx, entry)).join('\n');
  return html(
    200,
    adminPage({
      title: `${tx.kind} ${tx.id} · Payments sandbox`,
      current: null,
      tools: `${clockTools(state)}\n  <span id="notice" role="status"></span>`,
      filters: '',
      version: state.version,
      main: `${summaryHtml(tx)}
<h2 class="heading">Timeline <small>oldest first, times on the schedule clock</small></h2>
<ol class="timeline" id="timeline">
${list}
</ol>
<p class="note">Kept: the request log's newest ${MAX_LOGGED_REQUESTS} requests, a transaction's newest ${MAX_HISTORY_KEPT} status changes and resends and its newest 100 webhook attempts. As JSON: <a href="/_sandbox/${tx.kind}s/${encodeURIComponent(tx.id)}/timeline" data-link="json"><code>GET /_sandbox/${tx.kind}s/${escapeHtml(tx.id)}/timeline</code></a>.</p>`,
    }),
  );
}

/** The transaction now: what the dashboard's row says, and its buttons. */
function summaryHtml(tx: Transaction): string {
  const id = encodeURIComponent(tx.id);
  const fact = (label: string, value: string, wide = false) =>
    `<div${wide ? ' class="wide"' : ''}><dt>${label}</dt><dd>${value}</dd></div>`;
  const clock = clockLabel(SCHEDULE_CLOCK);
  const facts = [
    fact('reference', `<span class="ident" id="reference">${foreign(tx.referenceId ?? '')}</span>`, true),
    fact('merchant', identHtml(tx.merchantId)),
    fact('amount', amountHtml(tx.amountDigits, tx.currency)),
    tx.fee === null ? '' : fact('fee', amountHtml(tx.fee.amount, tx.fee.currency)),
    tx.errorCode === null ? '' : fact('error', `<span class="bad text">${foreign(tx.errorCode)}: ${foreign(tx.errorMessage ?? '')}</span>`),
    tx.cardLast4 === null ? '' : fact('card', `•••• ${escapeHtml(tx.cardLast4)}`),
    fact(`created ${clock}`, timeHtml(tx.createdAt, SCHEDULE_CLOCK)),
    fact(`updated ${clock}`, timeHtml(tx.updatedAt, SCHEDULE_CLOCK)),
    fact(`expires ${clock}`, timeHtml(tx.expiresAt, SCHEDULE_CLOCK)),
  ].join('');
  const hosted = tx.nextAction.type === 'redirect' ? `<a href="/_sandbox/pay/${id}" data-link="hosted">hosted page</a>` : '';
  return `<section class="panel summary" id="summary" data-transaction="${escapeHtml(tx.id)}">
  <h2>${tx.kind} <code class="ident">${escapeHtml(tx.id)}</code> ${statusBadge(tx.status)}</h2>
  <dl class="facts">${facts}</dl>
  <p class="links"><a href="/_sandbox/?reference=${id}#tx-${id}" data-link="dashboard">on the dashboard</a><a href="/_sandbox/log?transaction=${id}" data-link="requests">its requests</a>${hosted}</p>
  <div class="actions">${transactionActions(tx)}</div>
</section>`;
}

const CAUSES: Record<Cause, string> = {
  create: 'by its create request',
  seed: 'by the seed file',
  card_push: 'by the card push',
  payment_page: 'on the hosted payment page',
  dashboard: 'from the dashboard',
  admin_api: 'through the admin API',
  clock: 'by the sandbox clock',
};

/** The cause in words; the clock's two changes say which rule made them. */
function causeText(tx: Transaction, entry: { cause: Cause; status: string }): string {
  if (entry.cause !== 'clock') return CAUSES[entry.cause];
  if (entry.status === 'expired') return 'by the sandbox clock: expires_at passed while it was new';
  return tx.kind === 'payout' && entry.status === 'executed'
    ? 'by the sandbox clock: a payout still new 60 s after creation is executed'
    : CAUSES.clock;
}

function entryHtml(tx: Transaction, entry: TimelineEntry): string {
  switch (entry.type) {
    case 'request':
      return requestHtml(tx, entry);
    case 'status':
      return statusHtml(tx, entry);
    case 'resend':
      return item(
        'resend',
        entry.at,
        ` data-status="${escapeHtml(entry.status)}" data-cause="${entry.cause}"`,
        `<strong>Webhook sent again</strong> ${statusBadge(entry.status)}`,
        escapeHtml(causeText(tx, entry)),
      );
    case 'webhook':
      return webhookHtml(entry);
  }
}

function item(type: string, at: string, data: string, what: string, result: string, extraClass = ''): string {
  return `<li class="event event-${type}${extraClass}" data-type="${type}"${data}>
  <div class="when">${timeHtml(serviceMs(at), SCHEDULE_CLOCK)}</div>
  <div class="what">${what}</div>
  <div class="result">${result}</div>
</li>`;
}

/** A link to a request in the requests page, which lists the transaction's requests. */
function requestLink(tx: Transaction, seq: number): string {
  return `<a href="/_sandbox/log?transaction=${encodeURIComponent(tx.id)}#request-${seq}" data-link="request">request #${seq}</a>`;
}

function requestHtml(tx: Transaction, r: TimelineRequest): string {
  const as = r.merchant_id === tx.merchantId ? '' : ` as ${r.merchant_id === null ? 'no merchant' : foreign(r.merchant_id)}`;
  // The answer, and what the sandbox said of a refusal (the body stays in the request log).
  const said = detailsHtml({ ...r, body: null, seq: r.request_seq });
  return item(
    'request',
    r.at,
    ` data-operation="${r.operation}" data-request-seq="${r.request_seq}"`,
    `<strong>${escapeHtml(ENDPOINTS[r.operation].summary)}</strong> <code class="text">${escapeHtml(r.method)} ${pathHtml(r.path)}</code>${as}`,
    `answered ${requestAnswerHtml(r)} · ${requestLink(tx, r.request_seq)}${said}`,
  );
}

function statusHtml(tx: Transaction, s: TimelineStatus): string {
  const error =
    s.error_code === null ? '' : `<br><span class="bad text">${foreign(s.error_code)}: ${foreign(s.error_message ?? '')}</span>`;
  const request = s.request_seq === null ? '' : ` · ${requestLink(tx, s.request_seq)}`;
  return item(
    'status',
    s.at,
    ` data-status="${escapeHtml(s.status)}" data-cause="${s.cause}"`,
    `<strong>Status</strong> ${statusBadge(s.status)}`,
    `${escapeHtml(causeText(tx, s))}${request}${error}`,
  );
}

function webhookHtml(w: TimelineWebhook): string {
  const delivered = w.response_status !== null && w.response_status >= 200 && w.response_status < 300;
  const answered = w.response_status !== null || w.error !== null;
  const then = delivered
    ? ' · delivered'
    : w.next_attempt_at !== null
      ? ` · next attempt ${timeHtml(serviceMs(w.next_attempt_at), SCHEDULE_CLOCK)}`
      : answered && w.attempt >= MAX_ATTEMPTS
        ? ` · no more attempts (${MAX_ATTEMPTS} failed)`
        : '';
  const state = w.sent_at === null ? 'due' : answered ? (delivered ? 'delivered' : 'failed') : 'sending';
  return item(
    'webhook',
    w.at,
    ` data-webhook-status="${escapeHtml(w.status)}" data-attempt="${w.attempt}"`,
    `<strong>Webhook</strong> ${statusBadge(w.status)} attempt ${w.attempt} of ${MAX_ATTEMPTS} to <code class="text">${foreign(w.url)}</code>`,
    `${w.response_status !== null ? 'answered ' : w.error !== null ? 'no answer: ' : ''}${attemptAnswerHtml(w)}${then}`,
    ` webhook-${state}`,
  );
}
