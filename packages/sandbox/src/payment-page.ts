// The hosted payment page, `/_sandbox/pay/<id>`: the customer's page (answered to any machine,
// unlike the admin API), where Pay or Decline moves a new payin or payout and sends the customer
// on to the merchant's redirect URL. Its form is the only thing it reads.
import { FIRST_STATUS } from '@pay/schema';
import { readHeader } from '@pay/sign';
import type { AdminCall } from './admin-call.js';
import { fail, html, MAX_BODY_BYTES, methodNotAllowed, redirect, type Reply } from './http.js';
import { resultPage } from './card-layout.js';
import { payPage } from './payment-page-html.js';
import type { State } from './state.js';

/** Answers `GET` (the page) and `POST` (its form) for the payment page of transaction `id`. */
export async function paymentPage(state: State, call: AdminCall, id: string): Promise<Reply> {
  const tx = state.transactions.get(id);
  if (tx === undefined) return html(404, resultPage('Unknown payment', 'There is no payment with this id in the sandbox.'));
  if (call.method === 'GET') return html(200, payPage(tx, state.schedule.now()));
  if (call.method !== 'POST') return methodNotAllowed(call.method, ['GET', 'POST']);
  // The page's own form, and nothing else: a JSON body (a webhook) is not read as a form.
  if (!/^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i.test(readHeader(call.incoming.headers, 'content-type') ?? '')) {
    return html(415, resultPage('Nothing done', 'The payment page takes its own form only (application/x-www-form-urlencoded).'));
  }
  const bytes = await call.incoming.read();
  if (bytes === undefined) return fail(413, 'payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  const action = new URLSearchParams(new TextDecoder().decode(bytes)).get('action');
  if (action !== 'pay' && action !== 'decline') return html(400, resultPage('Nothing done', 'Choose Pay or Decline.'));
  if (tx.status === FIRST_STATUS) {
    if (action === 'pay') state.transition(tx, 'executed', 'payment_page');
    else
      state.transition(tx, 'failed', 'payment_page', {
        code: 'declined',
        message: 'The customer declined the payment on the hosted page.',
      });
  }
  const target = tx.status === 'executed' ? tx.redirectUrls.success : tx.redirectUrls.fail;
  if (target !== undefined) return redirect(303, target);
  return html(200, payPage(tx, state.schedule.now()));
}
