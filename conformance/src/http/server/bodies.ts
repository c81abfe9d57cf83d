// The bodies server mode sends: the interface's creates (each with its own reference_id and
// non-ASCII names) and the card push, as exact bytes.

/** A PAN the sandbox and most test environments treat as a successful card; never reported. */
export const TEST_CARD = { pan: '4242424242424242', exp_month: '12', csc: '123' };

/** A value as JSON bytes: minified, or pretty-printed (2-space indent, final newline). */
export const json = (value: unknown, pretty = false): Buffer =>
  Buffer.from(pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value), 'utf8');

/** The values of the interface's creates; `tag` makes the customer this run's own. */
export function bodies(tag: string, webhookUrl: string) {
  const customer = {
    id: `cus_${tag}`,
    email: 'zoe.lefevre@example.com',
    first_name: 'Zoé',
    last_name: 'Lefèvre',
    phone: { country_code: '+33', number: '612345678' },
  };
  const redirect_urls = { fail: 'https://shop.example/checkout/fail', success: 'https://shop.example/checkout/done' };
  const payin = (reference_id: string, extra: Record<string, unknown> = {}) => ({
    reference_id,
    payment: { amount: 149.9, currency: 'EUR' },
    customer: {
      ...customer,
      date_of_birth: '1990-04-12',
      address: { addr_line_1: '12 rue de la Paix', city: 'Paris', zip: '75002', country: 'FR' },
    },
    browser_data: { user_agent: 'pay-conformance', ip_address: '203.0.113.24' },
    webhook_url: webhookUrl,
    redirect_urls,
    language: 'fr',
    ...extra,
  });
  const payout = (reference_id: string) => ({
    reference_id,
    payment: { amount: 250, currency: 'GBP' },
    customer: { ...customer, phone: { country_code: '+44', number: '7700900123' } },
    webhook_url: webhookUrl,
  });
  const legacy = (reference_id: string) => {
    const { language: _language, ...rest } = payin(reference_id);
    return rest;
  };
  return { payin, payout, legacy };
}

/** The card push for a payin: the test card, expiring in three years. */
export function cardPushBody(payinId: string): Buffer {
  return json({
    payin_id: payinId,
    card: { pan: TEST_CARD.pan, exp_month: TEST_CARD.exp_month, exp_year: String(new Date().getUTCFullYear() + 3), csc: TEST_CARD.csc },
  });
}
