// Fixtures shared by the categories: merchants, ids, URLs, request bodies and the ways they are
// serialised (pretty, minified, escaped as Python and PHP write them), webhook payloads.

export const BASE = 'https://api.pay.example';
export const WEBHOOK_URL = 'https://shop.example/webhooks/pay';
export const T0 = '1732200000'; // 2024-11-21T14:40:00Z

export const MERCHANT = { id: 'm_12345', secret: 'sk_test_9fQ2mX7vLr4TzK8wBn3YpD6c' };
export const MERCHANT_B = { id: 'm_67890', secret: 'sk_test_H5s1cV0gRt8uJ2eXk7WqZ4aN' };
export const MERCHANT_NON_ASCII_ID = { id: 'm_café_42', secret: 'sk_test_Lp0Xw3Jd8QzR6nVb1Hs5Ty9u' };
/** Latin-1 encodable: the Latin-1 bytes differ from the UTF-8 ones only at 'é'. */
export const MERCHANT_LATIN1_SECRET = { id: 'm_24680', secret: 'sk_test_sécret_7Qm2Zr5Kx8' };
/** Outside Latin-1: Node's 'latin1' keeps the low byte of each UTF-16 unit ('к' → 3a, '🔑' → 3d 11). */
export const MERCHANT_WIDE_SECRET = { id: 'm_13579', secret: 'sk_test_ключ🔑_5Zr8Wq' };

export const PAYIN = 'pi_7Hc2LmQ9xR4t';
export const PAYIN_2 = 'pi_3Vb8NqK1sW6y';
export const PAYOUT = 'po_5Kd8NvW1zY3s';

export const PAYINS_V2 = `${BASE}/v2/merchants/payins/`;
export const PAYOUTS_V2 = `${BASE}/v2/merchants/payouts/`;
export const PAYINS_V1 = `${BASE}/v1/merchants/payins/`;

/** A create-payin v2 body as an object; the vectors serialise it in several ways. */
export const payinV2 = {
  reference_id: 'ord-1001',
  payment: { amount: 149.9, currency: 'EUR' },
  method: 'card',
  customer: {
    id: 'cus_8812',
    email: 'zoe.lefevre@example.com',
    first_name: 'Zoé',
    last_name: 'Lefèvre',
    phone: { country_code: '+33', number: '612345678' },
    date_of_birth: '1990-04-12',
    address: { addr_line_1: '12 rue de la Paix', city: 'Paris', zip: '75002', country: 'FR' },
  },
  browser_data: {
    user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    ip_address: '203.0.113.24',
  },
  webhook_url: WEBHOOK_URL,
  redirect_urls: { fail: 'https://shop.example/checkout/fail', success: 'https://shop.example/checkout/done' },
  language: 'fr',
};

export const payoutV2 = {
  reference_id: 'wd-2001',
  payment: { amount: 250, currency: 'GBP' },
  customer: {
    id: 'cus_4410',
    phone: { number: '7700900123', country_code: '+44' },
    email: 'sam.okafor@example.com',
    last_name: 'Okafor',
    first_name: 'Sam',
  },
  webhook_url: WEBHOOK_URL,
};

/** Legacy create-payin: no method, no state, no in_progress redirect. */
export const payinV1 = {
  reference_id: 'ord-0999',
  payment: { amount: 75.5, currency: 'EUR' },
  customer: {
    id: 'cus_3307',
    email: 'andre.mueller@example.com',
    first_name: 'André',
    last_name: 'Müller',
    phone: { country_code: '+49', number: '15123456789' },
    date_of_birth: '1985-09-30',
    address: { addr_line_1: 'Hauptstraße 5', city: 'Berlin', zip: '10115', country: 'DE' },
  },
  browser_data: { user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', ip_address: '198.51.100.7' },
  webhook_url: WEBHOOK_URL,
  redirect_urls: { fail: 'https://shop.example/checkout/fail', success: 'https://shop.example/checkout/done' },
};

export const minified = (value) => JSON.stringify(value);
export const pretty = (value) => JSON.stringify(value, null, 2);
/** Every non-ASCII UTF-16 unit as a lowercase \uXXXX escape (what ensure_ascii / PHP do). */
export const asciiEscaped = (json) => json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** PHP json_encode's defaults: '/' written as '\/', non-ASCII as \uXXXX. */
export const phpEncoded = (value) => asciiEscaped(minified(value).replaceAll('/', '\\/'));
/** Python json.dumps defaults: ', ' and ': ' separators, non-ASCII as \uXXXX. */
export function pythonDumps(value) {
  const encode = (v) => {
    if (Array.isArray(v)) return `[${v.map(encode).join(', ')}]`;
    if (v !== null && typeof v === 'object') {
      return `{${Object.entries(v)
        .map(([k, x]) => `${JSON.stringify(k)}: ${encode(x)}`)
        .join(', ')}}`;
    }
    return JSON.stringify(v);
  };
  return asciiEscaped(encode(value));
}

/** Webhook payloads. */
export const webhookNew = minified({ id: PAYIN, reference_id: 'ord-1001', status: 'new' });
export const webhookExecuted = minified({ id: PAYIN, reference_id: 'ord-1001', status: 'executed' });
export const webhookPayout = minified({ id: PAYOUT, reference_id: 'wd-2001', status: 'executed' });
