// createTestWebhook makes webhooks exactly as the service signs them, checked here against
// node:crypto, so that merchants can test their endpoints with it.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWebhook } from '../src/index.js';

describe('createTestWebhook', () => {
  it('signs a webhook exactly as the service does (checked with node:crypto)', async () => {
    const url = 'http://127.0.0.1:3000/webhooks/pay?shop=1';
    const hook = createTestWebhook({
      merchantId: 'm_1',
      secret: 'sk_t',
      url,
      payload: { id: 'pi_1', status: 'new' },
      timestamp: 1732200000,
    });
    expect(hook.body).toBe('{"id":"pi_1","status":"new"}');
    expect(hook.headers).toEqual({
      'content-type': 'application/json',
      'x-merchant-id': 'm_1',
      'x-timestamp': '1732200000',
      'x-signature': createHmac('sha256', 'sk_t').update(`m_11732200000POST${url}${hook.body}`).digest('hex'),
    });
    const request = hook.request;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(url);
    expect(request.headers.get('x-signature')).toBe(hook.headers['x-signature']);
    expect(await request.text()).toBe(hook.body);
    expect(await hook.request.text()).toBe(hook.body); // a fresh Request each time
  });

  it('sends a string payload byte for byte', () => {
    const body = '{\n  "id": "pi_1",\n  "status": "new"\n}';
    expect(createTestWebhook({ merchantId: 'm', secret: 's', url: 'https://x.example/', payload: body }).body).toBe(body);
  });
});
