// What client mode asks an SDK to create: hostile but valid data, as a merchant gives it to its
// SDK. Non-ASCII names, quotes, backslashes, "</script>", U+2028 and an astral character in the
// strings; characters Unicode normalisation (NFKC) rewrites (a ligature, full-width and half-width
// forms, a Roman numeral, a superscript), which an SDK must send as given; references with
// reserved and non-ASCII characters; amounts as decimal strings, which must reach the wire digit
// for digit (as JSON numbers). Every value passes the interface's schema.
import { TEST_CARD } from '../server/bodies.js';

/** The create operations, each with the body it takes. */
export type CreateKind = 'payin' | 'legacy' | 'payout' | 'payout-page';

/** Where client mode tells the service to deliver webhooks: an address that never resolves. */
const WEBHOOK_URL = 'https://webhook.invalid/pay-conformance';

/** The card of a push (server mode's test card, which the sandbox executes; never reported), expiring in three years. */
export const cardOf = () => ({ ...TEST_CARD, exp_year: String(new Date().getUTCFullYear() + 3) });

/**
 * A reference_id of a run that needs percent-encoding in a query and in no two ways the same: a
 * space, "/", "?", "#", "&", "=", "+", "%", an "ä" and a "€". `tag` makes it the run's own.
 */
export const hostileReference = (tag: string, label: string, n: number): string => `${label} ${tag}/ä?#&=+%€${n}`;

const customer = (tag: string) => ({
  id: `cus/${tag} é`,
  email: 'zoe.lefevre@example.com',
  first_name: 'Zoë "Zo" 🌍',
  // "ﬁ" (a ligature), "ｶﾅ" (half-width katakana), "²": NFKC makes them "fi", "カナ", "2".
  last_name: "O'Brien\\Lefèvre-Gri\ufb01n ｶﾅ²",
});

const redirectUrls = {
  fail: 'https://shop.example/checkout/fail?o=1&r=%C3%A9',
  success: 'https://shop.example/checkout/done',
};

/** The create's body, as given to the SDK (amounts as decimal strings), with `reference_id`. */
export function paramsOf(kind: CreateKind, tag: string, reference: string): Record<string, unknown> {
  if (kind === 'payout' || kind === 'payout-page') {
    return {
      reference_id: reference,
      payment: { amount: '1250.50', currency: 'GBP' },
      customer: { ...customer(tag), phone: { country_code: '+44', number: '7700900123' } },
      webhook_url: WEBHOOK_URL,
      ...(kind === 'payout-page' ? { redirect_urls: redirectUrls } : {}),
    };
  }
  const payin = {
    reference_id: reference,
    payment: { amount: kind === 'legacy' ? '10.10' : '149.90', currency: 'EUR' },
    customer: {
      ...customer(tag),
      phone: { country_code: '+33', number: '612345678' },
      date_of_birth: '1990-04-12',
      // U+2028 (LINE SEPARATOR) is valid in JSON strings and breaks JavaScript source: an escaper's trap.
      address: {
        // Full-width digits and "Ⅻ": NFKC makes them "12" and "XII".
        addr_line_1: '１２ rue de la Paix </script>',
        addr_line_2: 'Bât. Ⅻ\u2028Esc. 3',
        city: 'Zürich',
        zip: '8001',
        country: 'CH',
      },
    },
    browser_data: { user_agent: 'Mozilla/5.0 (X11; Linux) "quoted" \\ ✓', ip_address: '203.0.113.24' },
    webhook_url: WEBHOOK_URL,
    redirect_urls: redirectUrls,
  };
  return kind === 'legacy' ? payin : { ...payin, language: 'fr' };
}

/** A card payin's create body (the push cases' setup), as the runner itself sends it. */
export function cardPayinOf(tag: string, reference: string): Record<string, unknown> {
  return { ...paramsOf('payin', tag, reference), method: 'card' };
}

/**
 * The body the runner itself sends for a create (its set-up): the params with the amount written
 * as a JSON number, digit for digit.
 */
export function wireBodyOf(params: Record<string, unknown>): Buffer {
  const payment = params['payment'] as { amount: string; currency: string };
  const marker = '"__amount__"';
  const text = JSON.stringify({ ...params, payment: { ...payment, amount: '__amount__' } }).replace(marker, payment.amount);
  return Buffer.from(text, 'utf8');
}
