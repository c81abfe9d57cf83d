// The webhook-endpoint mode against receivers on loopback: the embedded one (reference
// implementation) must pass; receivers with one mistake each must be caught.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedReceiver } from '../src/embedded-receiver.js';
import { buildCases, toggleSlash } from '../src/webhook-endpoint.js';
import { runCli, tmp } from './helpers.js';

const MERCHANT = 'm_hook';
const SECRET = 'sk_test_hook_secret';
type Mistake = 'none' | 'accepts_everything' | 'never_expires' | 'only_checks_past' | 'ignores_merchant' | 'ignores_url' | 'rejects_everything';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

/** A receiver written with node:crypto, correct unless given one mistake. */
async function receiver(mistake: Mistake): Promise<string> {
  let url = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const h = req.headers;
      const m = String(h['x-merchant-id'] ?? '');
      const ts = String(h['x-timestamp'] ?? '');
      const sig = String(h['x-signature'] ?? '');
      const skew = Math.floor(Date.now() / 1000) - Number(ts);
      const ok = (() => {
        if (mistake === 'accepts_everything') return true;
        if (mistake === 'rejects_everything') return false;
        if (!m || !ts || !sig || !/^[0-9]+$/.test(ts)) return false;
        if (mistake !== 'never_expires' && (mistake === 'only_checks_past' ? skew > 60 : Math.abs(skew) > 60)) return false;
        if (mistake !== 'ignores_merchant' && m !== MERCHANT) return false;
        if (!/^[0-9a-f]{64}$/i.test(sig)) return false;
        // ignores_url: any form of the address will do (as when it is rebuilt from the request).
        const urls = mistake === 'ignores_url' ? [url, url.replace(/\/$/, ''), url.replace('http:', 'https:')] : [url];
        const mac = (u: string) => createHmac('sha256', SECRET).update(Buffer.from(`${m}${ts}POST${u}`)).update(body).digest();
        return urls.some((u) => timingSafeEqual(mac(u), Buffer.from(sig, 'hex')));
      })();
      res.writeHead(ok ? 204 : 403).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pay/`;
  return url;
}

const dir = tmp();
const endpoint = (url: string, json?: string) =>
  runCli(['webhook-endpoint', '--url', url, '--merchant-id', MERCHANT, '--secret', SECRET, '--timeout-ms', '2000', ...(json ? ['--json', json] : [])]);

describe('webhook-endpoint mode', () => {
  it('builds the cases the issue asks for, signed with the exact URL', () => {
    const cases = buildCases({ url: 'https://shop.example/hook/', merchantId: 'm', secret: 's', now: 1732200000 });
    const ids = cases.map((c) => c.id);
    for (const id of ['valid', 'forged-signature', 'tampered-body', 'expired', 'future-dated', 'url-slash-toggled', 'url-other-scheme', 'wrong-merchant', 'missing-signature']) {
      expect(ids).toContain(id);
    }
    expect(cases.find((c) => c.id === 'expired')!.headers['x-timestamp']).toBe('1732199930'); // now - 70
    expect(cases.find((c) => c.id === 'future-dated')!.headers['x-timestamp']).toBe('1732200070'); // now + 70
    expect(cases.filter((c) => c.expect === '2xx').map((c) => c.id)).toEqual(['valid', 'valid-exact-bytes', 'valid-50s-old']);
    expect(toggleSlash('https://a.example/x/?q=1')).toBe('https://a.example/x?q=1');
    expect(toggleSlash('https://a.example/x')).toBe('https://a.example/x/');
  });

  it('passes a correct receiver (node:crypto) and the embedded one (reference implementation)', async () => {
    const json = join(dir, 'ok.json');
    const run = await endpoint(await receiver('none'), json);
    expect(run.code, run.stdout).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cases: { status: string }[]; exit_code: number };
    expect(report.exit_code).toBe(0);
    expect(report.cases.every((c) => c.status === 'pass')).toBe(true);
    expect(readFileSync(json, 'utf8')).not.toContain(SECRET);

    const embedded = await startEmbeddedReceiver();
    try {
      const r = await runCli(['webhook-endpoint', '--url', embedded.url, '--merchant-id', embedded.merchantId, '--secret', embedded.secret]);
      expect(r.code, r.stdout).toBe(0);
      // The same, with the secret from the environment instead of the command line.
      const fromEnv = await runCli(['webhook-endpoint', '--url', embedded.url, '--merchant-id', embedded.merchantId], {
        env: { ...process.env, PAY_WEBHOOK_SECRET: embedded.secret },
      });
      expect(fromEnv.code, fromEnv.stdout).toBe(0);
      expect(fromEnv.stdout).not.toContain(embedded.secret);
    } finally {
      await embedded.close();
    }
  });

  const CAUGHT: [Mistake, string][] = [
    ['accepts_everything', 'forged-signature'],
    ['never_expires', 'expired'],
    ['only_checks_past', 'future-dated'],
    ['ignores_merchant', 'wrong-merchant'],
    ['ignores_url', 'url-slash-toggled'],
    ['rejects_everything', 'valid'],
  ];
  it.each(CAUGHT)('catches a receiver that %s (case %s fails)', async (mistake, id) => {
    const json = join(dir, `${mistake}.json`);
    const run = await endpoint(await receiver(mistake), json);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { cases: { id: string; status: string; diagnosis?: string }[] };
    const c = report.cases.find((x) => x.id === id)!;
    expect(c.status).toBe('fail');
    expect(c.diagnosis).toMatch(/must (get a 2xx|refuse it)/);
    expect(run.stdout).toMatch(/^FAIL /m);
  });

  it('reports an endpoint that does not answer as an error, and refuses bad arguments with exit 2', async () => {
    const run = await runCli(['webhook-endpoint', '--url', 'http://127.0.0.1:9/nothing', '--merchant-id', 'm', '--secret', 's', '--timeout-ms', '500']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/the request failed/);
    expect((await runCli(['webhook-endpoint', '--url', 'ftp://x', '--merchant-id', 'm', '--secret', 's'])).code).toBe(2);
    expect((await runCli(['webhook-endpoint', '--url', 'http://x'])).code).toBe(2);
  });
});
