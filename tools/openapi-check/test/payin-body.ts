// A valid create-payin body (card payin to a Canadian customer), shared by the Prism test and the
// TypeScript consumer compiled against the generated types.
export const validPayin = {
  payment: { amount: 10.5, currency: 'EUR' },
  customer: {
    id: 'cust-1',
    email: 'jane@shop.example',
    first_name: 'Jane',
    last_name: 'Doe',
    phone: { country_code: '+1', number: '4165550123' },
    date_of_birth: '1990-04-01',
    address: { addr_line_1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA' },
  },
  browser_data: { user_agent: 'Mozilla/5.0', ip_address: '203.0.113.7' },
  webhook_url: 'https://shop.example/hooks',
  redirect_urls: { success: 'https://shop.example/ok', fail: 'https://shop.example/fail' },
};
