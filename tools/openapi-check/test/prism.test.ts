// Prism (Stoplight's mock server) fed the published OpenAPI document validates requests with it:
// an invalid body is refused (422) and a valid one accepted. A document that declared
// `jsonSchemaDialect` was silently not validated at all (an empty create-payin got a 200).
// Prism starts once for the whole file; it is slow to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { freePort } from '@pay/test-support';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '@pay/schema';

const valid = EXAMPLES.createPayin;

const require = createRequire(import.meta.url);
const documentPath = require.resolve('@pay/schema/openapi.json');
const prismBin = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

let prism: ChildProcess;
let base = '';
let log = '';
const logWaiters: (() => boolean)[] = [];

/** Resolves once Prism's log contains `text` (its log and its answer travel separately). */
function logged(text: string): Promise<void> {
  if (log.includes(text)) return Promise.resolve();
  return new Promise((resolve) =>
    logWaiters.push(() => {
      if (!log.includes(text)) return false;
      resolve();
      return true;
    }),
  );
}

beforeAll(async () => {
  const port = await freePort();
  prism = spawn(process.execPath, [prismBin, 'mock', documentPath, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      for (const waiter of [...logWaiters]) if (waiter()) logWaiters.splice(logWaiters.indexOf(waiter), 1);
      if (log.includes('Prism is listening')) resolve();
    };
    prism.stdout!.on('data', onData);
    prism.stderr!.on('data', onData);
    prism.on('exit', (code) => reject(new Error(`prism exited (${code}) before listening:\n${log}`)));
  });
  base = `http://127.0.0.1:${port}`;
}, 90_000);

afterAll(() => {
  prism?.kill();
});

const signedHeaders = {
  'content-type': 'application/json',
  'x-merchant-id': 'm_1',
  'x-timestamp': '1732200000',
  'x-signature': 'a'.repeat(64),
};

async function createPayin(body: unknown, headers: Record<string, string> = signedHeaders) {
  const response = await fetch(`${base}/v2/merchants/payins/`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe('Prism mocking the published document', () => {
  it('the document declares no jsonSchemaDialect (the line that switched validation off)', () => {
    expect(JSON.parse(readFileSync(documentPath, 'utf8'))).not.toHaveProperty('jsonSchemaDialect');
  });

  it('refuses an empty create-payin body with 422, its log naming each missing field', async () => {
    const a = await createPayin({});
    expect(a.status).toBe(422);
    for (const field of ['payment', 'customer', 'browser_data', 'webhook_url', 'redirect_urls']) {
      await logged(`request.body Request body must have required property '${field}'`);
    }
  });

  it.each([
    ['an unknown property', { ...valid, colour: 'red' }],
    ['a lower-case currency', { ...valid, payment: { amount: 1, currency: 'eur' } }],
    ['a currency that is not ISO 4217 (the enum of the document)', { ...valid, payment: { amount: 1, currency: 'ABC' } }],
    ['a zero amount', { ...valid, payment: { amount: 0, currency: 'EUR' } }],
    ['Canada without a province', { ...valid, customer: { ...valid.customer, address: { ...valid.customer.address, state: undefined } } }],
    ['a plain-http webhook address', { ...valid, webhook_url: 'http://shop.example/hooks' }],
  ])('refuses %s with 422', async (_name, body) => {
    expect((await createPayin(body)).status).toBe(422);
  });

  it('accepts a valid body', async () => {
    expect((await createPayin(valid)).status).toBe(200);
  });

  it('requires the authentication headers it declares', async () => {
    const { 'x-signature': _s, ...unsigned } = signedHeaders;
    expect((await createPayin(valid, unsigned)).status).toBe(401);
  });
});
