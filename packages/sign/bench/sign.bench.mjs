// Sign and verify throughput against a hand-written node:crypto baseline, side by side.
// `pnpm bench` runs this twice: on Node's default (node:crypto backend) and with
// `--conditions=pay-noble` (the pure-JavaScript backend browsers and edge workers use).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { backend } from '#hmac';
import { signRequest, verifyRequest } from '@pay/sign';
import { compare } from '../../../tools/bench.mjs';

const merchantId = 'm_12345';
const secret = 'sk_test_51Hc9f8e7d6c5b4a3';
const url = 'https://api.pay.example/v2/merchants/payins/';
const timestamp = '1732200000';
const now = 1732200010;
const bodyOf = (size) => JSON.stringify({ reference_id: 'order-1', pad: 'x'.repeat(Math.max(0, size - 40)) });

console.log(`@pay/sign on the ${backend} backend (node ${process.version})`);
const targets = [];
for (const [label, size] of [
  ['0.2 KB', 200],
  ['1.2 KB', 1200],
  ['16 KB', 16_384],
]) {
  const body = bodyOf(size);
  const signature = createHmac('sha256', secret)
    .update(`${merchantId + timestamp}POST${url}${body}`)
    .digest('hex');
  const headers = { 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature };

  const sign = await compare(
    `sign, ${label} body`,
    [
      'raw node:crypto createHmac',
      () =>
        createHmac('sha256', secret)
          .update(`${merchantId + timestamp}POST${url}${body}`)
          .digest('hex'),
    ],
    { [`signRequest (${backend})`]: () => signRequest({ merchantId, secret, timestamp, method: 'POST', url, body }) },
  );
  targets.push([`sign ${label}`, sign[`signRequest (${backend})`]]);

  await compare(
    `verify, ${label} body`,
    [
      'raw node:crypto createHmac + timingSafeEqual',
      () => {
        const expected = createHmac('sha256', secret)
          .update(`${headers['x-merchant-id'] + headers['x-timestamp']}POST${url}${body}`)
          .digest();
        return timingSafeEqual(expected, Buffer.from(headers['x-signature'], 'hex'));
      },
    ],
    { [`verifyRequest (${backend})`]: () => verifyRequest({ merchantId, secret, method: 'POST', url, headers, body, now }) },
  );
}
if (backend === 'node') {
  console.log('\ntarget on Node: signRequest at least 0.9x the raw baseline');
  for (const [name, ratio] of targets) console.log(`  ${name}: ${ratio.toFixed(2)}x ${ratio >= 0.9 ? 'meets' : 'BELOW'} the target`);
}
