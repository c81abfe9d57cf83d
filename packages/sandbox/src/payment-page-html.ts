// The hosted payment page's markup: the customer's, so a page of its own, readable on a phone
// (the card layout, card-layout.ts). payment-page.ts answers its requests.
import { FIRST_STATUS } from '@pay/schema';
import { cardPage } from './card-layout.js';
import { formatAmount } from './format.js';
import { escapeHtml, foreign, SCHEDULE_CLOCK, timeHtml, duration, statusBadge } from './html-kit.js';
import { executesAt, type Transaction } from './records.js';

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
