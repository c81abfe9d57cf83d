// Webhook verification throughput on a ~200-byte payload, side by side in one run with
// stripe-node's constructEvent, standardwebhooks' verify, and the leanest raw node:crypto
// baseline: one createHmac(...).update(string).digest('hex'), timingSafeEqual of the two hex
// strings as bytes, JSON.parse. Each verifies a signature and parses the JSON; verifyWebhook also
// reads the headers case-insensitively, checks the timestamp and merchant, and checks the payload.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { verifyWebhook } from '@pay/webhook';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { compare } from '../../../tools/bench.mjs';

const merchantId = 'm_12345';
const secret = 'sk_test_51Hc9f8e7d6c5b4a3';
const url = 'https://shop.example/webhooks/pay';
const payload = JSON.stringify({
  id: 'pi_3Q8x7YkLmN2pQr4sT6uV8wX0',
  reference_id: 'order-2026-11-22-000123',
  status: 'executed',
  updated_at: '2026-11-22T12:00:00.123456',
  note: 'x'.repeat(40),
});
const payloadBytes = Buffer.from(payload); // what the adapters read from the wire
const timestamp = Math.floor(Date.now() / 1000);
const headers = {
  'x-merchant-id': merchantId,
  'x-timestamp': String(timestamp),
  'x-signature': createHmac('sha256', secret).update(`${merchantId}${timestamp}POST${url}${payload}`).digest('hex'),
};

const stripe = new Stripe('sk_test_unused');
const stripeSecret = 'whsec_test_secret';
const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload, secret: stripeSecret, timestamp });

const swSecret = Buffer.from('standard-webhooks-test-secret-32b').toString('base64');
const sw = new Webhook(swSecret);
const swId = 'msg_2mLz8Q';
const swHeaders = {
  'webhook-id': swId,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': `v1,${createHmac('sha256', Buffer.from(swSecret, 'base64')).update(`${swId}.${timestamp}.${payload}`).digest('base64')}`,
};

// Every contender must accept its input, or the comparison means nothing.
if (!verifyWebhook({ merchantId, secret, url, headers, body: payload }).ok) throw new Error('@pay/webhook refused its input');
stripe.webhooks.constructEvent(payload, stripeHeader, stripeSecret);
sw.verify(payload, swHeaders);

console.log(`@pay/webhook verification, ${Buffer.byteLength(payload)}-byte payload (node ${process.version})`);
const ratios = await compare(
  'verify + parse',
  [
    'raw node:crypto HMAC + timingSafeEqual + JSON.parse',
    () => {
      const expected = createHmac('sha256', secret)
        .update(`${headers['x-merchant-id']}${headers['x-timestamp']}POST${url}${payload}`)
        .digest('hex');
      if (!timingSafeEqual(Buffer.from(expected), Buffer.from(headers['x-signature']))) throw new Error('mismatch');
      return JSON.parse(payload);
    },
  ],
  {
    '@pay/webhook verifyWebhook': () => verifyWebhook({ merchantId, secret, url, headers, body: payload }),
    '@pay/webhook verifyWebhook, Buffer body': () => verifyWebhook({ merchantId, secret, url, headers, body: payloadBytes }),
    'stripe webhooks.constructEvent': () => stripe.webhooks.constructEvent(payload, stripeHeader, stripeSecret),
    'standardwebhooks Webhook.verify': () => sw.verify(payload, swHeaders),
  },
);
const ours = ratios['@pay/webhook verifyWebhook'];
console.log('\ntargets: ahead of both peers, and at least 0.9x the raw baseline');
console.log(`  vs raw baseline: ${ours.toFixed(2)}x ${ours >= 0.9 ? 'meets' : 'BELOW'} the target`);
console.log(`  (with the body as a Buffer, as adapters read it: ${ratios['@pay/webhook verifyWebhook, Buffer body'].toFixed(2)}x)`);
for (const peer of ['stripe webhooks.constructEvent', 'standardwebhooks Webhook.verify']) {
  const r = ours / ratios[peer];
  console.log(`  vs ${peer}: ${r.toFixed(2)}x ${r > 1 ? 'ahead' : 'BEHIND'}`);
}
