import { createHmac } from 'node:crypto';
import { verifyWebhook } from './dist/index.js';
const merchantId = 'm_12345', secret = 'sk_test_51Hc9f8e7d6c5b4a3', url = 'https://shop.example/webhooks/pay';
const payload = JSON.stringify({ id: 'pi_3Q8x7YkLmN2pQr4sT6uV8wX0', reference_id: 'order-2026-11-22-000123', status: 'executed', updated_at: '2026-11-22T12:00:00.123456', note: 'x'.repeat(40) });
const timestamp = Math.floor(Date.now() / 1000);
const headers = { 'x-merchant-id': merchantId, 'x-timestamp': String(timestamp), 'x-signature': createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${url}${payload}`).digest('hex') };
const body = process.argv[2] === 'buf' ? Buffer.from(payload) : payload;
for (let i = 0; i < 1000000; i++) verifyWebhook({ merchantId, secret, url, headers, body });
