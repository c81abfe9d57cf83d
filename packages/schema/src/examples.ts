/**
 * One valid example of every request body of the interface, as plain frozen data: what tests,
 * tools, benchmarks and documents start from (and change a field of) instead of each writing its
 * own copy. Each passes its schema; `test/examples.test.ts` holds them to it.
 *
 * @module
 */
import type { CardPushRequest } from './card.js';
import type { CreatePayinRequest, CreatePayinRequestV1 } from './payin.js';
import type { CreatePayoutRequest } from './payout.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

// Under .invalid (RFC 6761), a name no resolver answers: a sandbox given an example as it is fails
// its webhooks at once, without a DNS query leaving the machine (a test or a README example that
// wants them received gives its own webhook_url).
const WEBHOOK_URL = 'https://shop.invalid/hooks/pay';

const customer = {
  id: 'cust-1',
  email: 'jane@shop.example',
  first_name: 'Jane',
  last_name: 'Doe',
  phone: { country_code: '+1', number: '4165550123' },
  date_of_birth: '1990-04-01',
};

/**
 * Valid request bodies: a create-payin (v2, hosted page, a customer in Toronto), a legacy
 * create-payin, a create-payout and a card push (test card 4242...). Frozen: copy one
 * (`structuredClone`) to change it.
 *
 * @example
 * ```ts
 * const body = { ...structuredClone(EXAMPLES.createPayin), reference_id: 'order-1' };
 * validate(CreatePayinRequest, body).ok; // true
 * ```
 */
export const EXAMPLES = deepFreeze({
  createPayin: {
    payment: { amount: 10.5, currency: 'EUR' },
    customer: { ...customer, address: { addr_line_1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA' } },
    browser_data: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7' },
    webhook_url: WEBHOOK_URL,
    redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' },
  } satisfies CreatePayinRequest,
  createPayinLegacy: {
    payment: { amount: 20, currency: 'USD' },
    customer: { ...customer, address: { addr_line_1: 'Unter den Linden 1', city: 'Berlin', zip: '10117', country: 'DE' } },
    browser_data: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7' },
    webhook_url: WEBHOOK_URL,
    redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' },
  } satisfies CreatePayinRequestV1,
  createPayout: {
    payment: { amount: '99.99', currency: 'EUR' },
    customer: {
      id: 'cust-1',
      email: 'jane@shop.example',
      first_name: 'Jane',
      last_name: 'Doe',
      phone: { country_code: '+49', number: '1701234567' },
    },
    webhook_url: WEBHOOK_URL,
  } satisfies CreatePayoutRequest,
  cardPush: {
    payin_id: 'pi_example',
    card: { pan: '4242424242424242', exp_month: '12', exp_year: '2099', csc: '123' },
  } satisfies CardPushRequest,
});
