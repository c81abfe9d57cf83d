// What the shop sells, who buys it, and the test cards its card checkout offers. A real shop has
// a product database and a checkout form; these fixed values keep the example about payments.

/** A product on the product page. */
export interface Product {
  id: string;
  name: string;
  /** A decimal string: sent to the service digit for digit. */
  price: string;
  currency: string;
}

export const PRODUCTS: readonly Product[] = Object.freeze([
  { id: 'mug', name: 'Enamel mug', price: '12.50', currency: 'EUR' },
  { id: 'tee', name: 'Organic T-shirt', price: '24.00', currency: 'EUR' },
  { id: 'poster', name: 'Risograph poster', price: '39.90', currency: 'EUR' },
]);

/** The signed-in customer, as a real shop would have them from its account pages. */
export const CUSTOMER = Object.freeze({
  id: 'cust-42',
  email: 'jane@shop.example',
  first_name: 'Jane',
  last_name: 'Doe',
  phone: { country_code: '+1', number: '4165550123' },
  date_of_birth: '1990-04-01',
  address: { addr_line_1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA' as const },
});

/** A test card the card checkout offers. Pages show `label` only; the number stays on the server. */
export interface TestCard {
  id: string;
  label: string;
  pan: string;
}

const card = (id: string, brand: string, pan: string, outcome: string): TestCard => ({
  id,
  label: `${brand} ending ${pan.slice(-4)} (${outcome})`,
  pan,
});

/** Cards whose outcome the sandbox fixes (see its test card table). */
export const TEST_CARDS: readonly TestCard[] = Object.freeze([
  card('visa-ok', 'Visa', '4242424242424242', 'approved'),
  card('mastercard-ok', 'Mastercard', '5555555555554444', 'approved'),
  card('visa-declined', 'Visa', '4000000000000002', 'declined'),
  card('visa-no-funds', 'Visa', '4000000000009995', 'insufficient funds'),
]);

/** The expiry sent with a test card: December, three years from now (never in the past). */
export function testCardExpiry(now = new Date()): { exp_month: string; exp_year: string } {
  return { exp_month: '12', exp_year: String(now.getUTCFullYear() + 3) };
}
