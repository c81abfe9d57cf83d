import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openShop } from './outage.mjs';

let shop;
beforeEach(async () => {
  shop = await openShop();
});
afterEach(() => shop.close());

test('an order paid while the receiver is down for two hours is found by the reconciler', async () => {
  const payin = await shop.order('order-1');
  await shop.receiver.down();
  await shop.env.sandbox.admin.setStatus('payin', payin.id, 'executed');
  await shop.env.advance('2h');
  assert.deepEqual(await shop.paidAt('order-1'), new Date('2026-03-02T09:15:00Z'));
  const attempts = (await shop.env.sandbox.admin.deliveries(payin.id)).filter((a) => a.status === 'executed');
  assert.deepEqual(
    attempts.map((a) => a.response_status),
    [null, null, null, null, null],
  );
});
