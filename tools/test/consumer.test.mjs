// The packages as a consumer gets them: packed exactly as they would be published, installed
// with plain npm into an empty project, and used from ESM, from CommonJS (require(esm), Node
// 20.19+), and through the conformance CLI's bin.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll } from '../pack.mjs';

const dir = mkdtempSync(join(tmpdir(), 'pay-consumer-'));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });

beforeAll(() => {
  const tarballs = packAll(join(dir, 'tarballs')).map((p) => p.tarball);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs]);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('installed from the packed tarballs with npm', () => {
  it('works from ESM: every package and subpath', () => {
    writeFileSync(
      join(dir, 'esm.mjs'),
      `import { signRequest, verifyRequest } from '@pay/sign';
import { validate, WebhookPayload } from '@pay/schema';
import openapi from '@pay/schema/openapi.json' with { type: 'json' };
import { verifyWebhook, createTestWebhook } from '@pay/webhook';
import { createNodeWebhookHandler } from '@pay/webhook/node';
import { webhookMiddleware } from '@pay/webhook/express';
import { fastifyWebhook } from '@pay/webhook/fastify';
const config = { merchantId: 'm_1', secret: 'sk_1', url: 'https://shop.example/hooks' };
const hook = createTestWebhook({ ...config, payload: { id: 'pi_1', status: 'new' } });
console.log(JSON.stringify({
  sign: verifyRequest({ ...config, method: 'POST', headers: signRequest({ ...config, method: 'POST', body: '{}' }), body: '{}' }).ok,
  schema: validate(WebhookPayload, { id: 'pi_1', status: 'new' }).ok,
  openapi: openapi.openapi,
  webhook: verifyWebhook({ ...config, headers: hook.headers, body: hook.body }).ok,
  adapters: [createNodeWebhookHandler, webhookMiddleware, fastifyWebhook].map((f) => typeof f),
}));
`,
    );
    expect(JSON.parse(run(process.execPath, ['esm.mjs']))).toEqual({
      sign: true,
      schema: true,
      openapi: '3.1.0',
      webhook: true,
      adapters: ['function', 'function', 'function'],
    });
  });

  it('works from CommonJS through require(esm)', () => {
    writeFileSync(
      join(dir, 'cjs.cjs'),
      `const { signSimplified } = require('@pay/sign');
const { verifyWebhook } = require('@pay/webhook');
console.log(signSimplified({ merchantId: 'm', secret: 's', timestamp: 1, payinId: 'p' })['x-simplified-signature'], typeof verifyWebhook);
`,
    );
    // HMAC-SHA256("s", "m1p"), computed with Python's hmac module.
    expect(run(process.execPath, ['cjs.cjs']).trim()).toBe('182cbbaa278731717d9bd83b55019b99d55dc208baf30580e7e9dfafd3ea77ad function');
  });

  it('runs the conformance suite through the installed bin', () => {
    const out = run('npx', ['--no-install', 'pay-conformance']);
    expect(out).toMatch(/^PASS \d+ passed, 0 failed, 0 skipped/m);
    expect(out).toMatch(/^PASS 13 passed, 0 failed/m);
  });
});
