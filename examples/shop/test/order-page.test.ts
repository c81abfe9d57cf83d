// The order page's times, as a unit: written as the sandbox's pages write them, each naming its
// clock. Against the sandbox with SHOP_SANDBOX_CLOCK=1 (`pnpm demo`) the journal records events on
// the sandbox's schedule clock, which an advance moves ahead of the wall clock the order was
// stamped on: unlabelled, the two looked like a mistake.
import { describe, expect, it } from 'vitest';
import type { Order, OrderEvent } from '../src/orders.js';
import { orderPage } from '../src/pages.js';

const order: Order = {
  reference: 'order-0123456789abcdef',
  kind: 'card',
  description: 'Tee',
  amount: '24.00',
  currency: 'EUR',
  customerName: 'Jane Doe',
  status: 'paid',
  transactionId: 'pi_jakwcqfz1rdabg1jqem9',
  createdAt: new Date('2026-11-23T16:15:02.345Z'),
};
const events = [
  { status: 'executed', source: 'webhook', outcome: 'change', recordedAt: new Date('2026-11-23T17:17:03.001Z') },
] as unknown as OrderEvent[];

describe('the order page', () => {
  it('on the sandbox clock: the events name it, the order the wall clock', () => {
    const page = orderPage(order, events, undefined, 0, 'sandbox').value;
    expect(page).toContain(
      '<time datetime="2026-11-23T16:15:02.345Z" title="2026-11-23T16:15:02.345Z, wall clock" data-clock="wall">2026-11-23 16:15:02 UTC</time>',
    );
    expect(page).toContain(
      '<time datetime="2026-11-23T17:17:03.001Z" title="2026-11-23T17:17:03.001Z, the sandbox&#39;s schedule clock" data-clock="sandbox">2026-11-23 17:17:03 UTC</time>',
    );
    expect(page).toContain('<th>Recorded <small class="clock">the sandbox&#39;s schedule clock</small></th>');
    expect(page).toContain('<th>Ordered <small class="clock">wall clock</small></th>');
    expect(page).not.toMatch(/>\d{4}-\d\d-\d\dT/);
  });

  it('ids and references are marked to stay whole', () => {
    const page = orderPage(order, events, undefined).value;
    expect(page).toContain('<td><span class="ident">order-0123456789abcdef</span></td>');
    expect(page).toContain('<td><span class="ident">pi_jakwcqfz1rdabg1jqem9</span></td>');
  });
});
