// The webhook-endpoint mode against receivers on loopback: the embedded one (reference
// implementation) must pass; receivers with one mistake each must be caught, exactly where the
// mistake shows.
import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedReceiver } from '../src/http/embedded-receiver.js';
import { buildCases } from '../src/http/webhook-endpoint/cases.js';
import { toggleSlash } from '../src/http/url-variants.js';
import { runCli, tmp, type JsonReport } from './helpers.js';
import { runInProcess } from './in-process.js';

const MERCHANT = 'm_hook';
const SECRET = 'sk_test_hook_secret';
const MISTAKES = [
  'none',
  'accepts_everything',
  'never_expires',
  'only_checks_past',
  'ignores_merchant',
  'ignores_url',
  'rejects_everything',
  'uses_host_header',
  'uses_forwarded_host',
  'refuses_redelivery',
] as const;
type Mistake = (typeof MISTAKES)[number];

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

/** A receiver written with node:crypto, correct unless given one mistake; over TLS with `tls`. */
async function receiver(mistake: Mistake, tls?: { key: string; cert: string }): Promise<string> {
  let url = '';
  const seen = new Set<string>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const h = req.headers;
      const m = String(h['x-merchant-id'] ?? '');
      const ts = String(h['x-timestamp'] ?? '');
      const sig = String(h['x-signature'] ?? '');
      const skew = Math.floor(Date.now() / 1000) - Number(ts);
      // The URL it verifies: the configured one, or (the mistakes) one rebuilt from the request.
      const verified =
        mistake === 'uses_host_header'
          ? `http://${h.host}${req.url}`
          : mistake === 'uses_forwarded_host'
            ? `${h['x-forwarded-proto'] ?? 'http'}://${h['x-forwarded-host'] ?? h.host}${req.url}`
            : url;
      const ok = (() => {
        if (mistake === 'accepts_everything') return true;
        if (mistake === 'rejects_everything') return false;
        if (!m || !ts || !sig || !/^[0-9]+$/.test(ts)) return false;
        if (mistake !== 'never_expires' && (mistake === 'only_checks_past' ? skew > 60 : Math.abs(skew) > 60)) return false;
        if (mistake !== 'ignores_merchant' && m !== MERCHANT) return false;
        if (!/^[0-9a-f]{64}$/i.test(sig)) return false;
        // ignores_url: any form of the address will do.
        const urls = mistake === 'ignores_url' ? [verified, verified.replace(/\/$/, ''), verified.replace('http:', 'https:')] : [verified];
        const mac = (u: string) =>
          createHmac('sha256', SECRET)
            .update(Buffer.from(`${m}${ts}POST${u}`))
            .update(body)
            .digest();
        return urls.some((u) => timingSafeEqual(mac(u), Buffer.from(sig, 'hex')));
      })();
      if (!ok) return res.writeHead(403).end();
      // refuses_redelivery: an event id it has seen is refused, as a careless replay guard does.
      const id = (JSON.parse(body.toString('utf8') || '{}') as { id?: string }).id ?? '';
      if (mistake === 'refuses_redelivery' && seen.has(id)) return res.writeHead(409).end();
      seen.add(id);
      res.writeHead(204).end();
    });
  };
  const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${(server.address() as AddressInfo).port}/hooks/pay/`;
  return url;
}

const dir = tmp();
/** `webhook-endpoint` against the receiver at `url`, as every test here runs it (`extra` after). */
const endpointArgs = (url: string, extra: string[] = []) => [
  'webhook-endpoint',
  '--url',
  url,
  '--merchant-id',
  MERCHANT,
  '--secret',
  SECRET,
  '--timeout-ms',
  '10000',
  ...extra,
];
const endpoint = (url: string, extra: string[] = []) => runCli(endpointArgs(url, extra));

describe('webhook-endpoint mode', () => {
  it('builds the cases the issue asks for, signed with the exact URL', () => {
    const cases = buildCases({ url: 'https://shop.example/hook/', merchantId: 'm', secret: 's', now: 1732200000 });
    const ids = cases.map((c) => c.id.split('/')[1]);
    for (const id of [
      'valid',
      'redelivery',
      'forged-signature',
      'tampered-body',
      'expired',
      'future-dated',
      'url-slash-toggled',
      'url-other-scheme',
      'host-header-chosen-by-sender',
      'forwarded-host-chosen-by-sender',
      'wrong-merchant',
      'missing-signature',
    ]) {
      expect(ids).toContain(id);
    }
    const at = (id: string) => cases.find((c) => c.id.endsWith(`/${id}`))!;
    expect(at('expired').deliveries[0]!.headers['x-timestamp']).toBe('1732199930'); // now - 70
    expect(at('future-dated').deliveries[0]!.headers['x-timestamp']).toBe('1732200070'); // now + 70
    expect(cases.filter((c) => c.expect === '2xx').map((c) => c.id)).toEqual([
      'webhook_accepts/valid',
      'webhook_accepts/valid-exact-bytes',
      'webhook_accepts/valid-50s-old',
      'webhook_accepts/redelivery',
    ]);
    // A re-delivery: the same bytes, signed again at another second.
    const [first, again] = at('redelivery').deliveries;
    expect(again!.body.equals(first!.body)).toBe(true);
    expect(again!.headers['x-timestamp']).not.toBe(first!.headers['x-timestamp']);
    // The sender-chosen host: the Host header names it, and the signature is for it, computed here.
    const host = at('host-header-chosen-by-sender').deliveries[0]!;
    expect(host.headers['host']).toBe('attacker.invalid');
    const want = createHmac('sha256', 's')
      .update(`m${host.headers['x-timestamp']}POSThttps://attacker.invalid/hook/`)
      .update(host.body)
      .digest('hex');
    expect(host.headers['x-signature']).toBe(want);
    expect(toggleSlash('https://a.example/x/?q=1')).toBe('https://a.example/x?q=1');
    expect(toggleSlash('https://a.example/x')).toBe('https://a.example/x/');
  });

  it('passes a correct receiver (node:crypto) and the embedded one (reference implementation), in every format', async () => {
    const json = join(dir, 'ok.json');
    const junit = join(dir, 'ok.xml');
    const run = await endpoint(await receiver('none'), ['--json', json, '--junit', junit, '--tap']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport & { mode: string };
    expect(report.mode).toBe('webhook-endpoint');
    expect(report.exit_code).toBe(0);
    expect(report.cases.every((c) => c.status === 'pass')).toBe(true);
    expect(readFileSync(json, 'utf8')).not.toContain(SECRET);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite name="webhook_refuses"');
    expect(run.stdout).toMatch(new RegExp(`^1\\.\\.${report.summary.total}$`, 'm'));

    const embedded = await startEmbeddedReceiver();
    try {
      const r = await runCli([
        'webhook-endpoint',
        '--url',
        embedded.url,
        '--merchant-id',
        embedded.merchantId,
        '--secret',
        embedded.secret,
      ]);
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

  /** Exactly the cases each receiver mistake fails. */
  const CAUGHT: [Mistake, string[]][] = [
    [
      'accepts_everything',
      [
        'forged-signature',
        'wrong-secret',
        'tampered-body',
        'expired',
        'future-dated',
        'url-slash-toggled',
        'url-other-scheme',
        'host-header-chosen-by-sender',
        'forwarded-host-chosen-by-sender',
        'wrong-merchant',
        'missing-signature',
        'fractional-timestamp',
      ],
    ],
    ['never_expires', ['expired', 'future-dated']],
    ['only_checks_past', ['future-dated']],
    ['ignores_merchant', ['wrong-merchant']],
    ['ignores_url', ['url-slash-toggled', 'url-other-scheme']],
    ['rejects_everything', ['valid', 'valid-exact-bytes', 'valid-50s-old', 'redelivery']],
    ['uses_host_header', ['host-header-chosen-by-sender']],
    // Without X-Forwarded-Host it falls back on Host, so it follows both.
    ['uses_forwarded_host', ['forwarded-host-chosen-by-sender', 'host-header-chosen-by-sender']],
    ['refuses_redelivery', ['redelivery']],
  ];
  // In this process (runInProcess), side by side, each receiver a real server on loopback; the
  // tests around these run the CLI itself.
  it.concurrent.each(CAUGHT)('catches a receiver that %s', async (mistake, ids) => {
    const url = await receiver(mistake);
    const { run, report } = await runInProcess(endpointArgs(url));
    expect(run.code).toBe(1);
    const failing = report.cases.filter((c) => c.status === 'fail');
    expect(failing.map((c) => c.id.split('/')[1]).sort()).toEqual([...ids].sort());
    for (const c of failing) expect(c.diagnosis).toMatch(/must (get a 2xx|refuse it)/);
    expect(run.stdout).toMatch(/^FAIL /m);
  });

  it('says which delivery of a re-delivery was refused', async () => {
    const json = join(dir, 'redelivery.json');
    await endpoint(await receiver('refuses_redelivery'), ['--json', json]);
    const c = (JSON.parse(readFileSync(json, 'utf8')) as JsonReport).cases.find((x) => x.id === 'webhook_accepts/redelivery')!;
    expect(c.diagnosis).toMatch(/^a correctly signed webhook \(delivery 2 of 2\) got HTTP 409; it must get a 2xx/);
    expect(c.got).toEqual({ http_status: [204, 409] });
  });

  it("tests an HTTPS endpoint: a self-signed certificate refused unless trusted or --insecure; TLS checks the URL's host whatever Host is sent", async (ctx) => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      ctx.skip(); // no openssl to make a certificate with
      return;
    }
    const url = await receiver('none', { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') });
    const json = join(dir, 'tls.json');
    const refused = await endpoint(url, ['--json', json]);
    expect(refused.code, refused.stdout).toBe(1); // a self-signed certificate is refused without --insecure
    expect(refused.stdout).toMatch(/the request failed: self[- ]signed certificate/);
    expect((await endpoint(url, ['--insecure'])).code).toBe(0);
    // Trusted, the certificate is checked against the URL's host even when a case sends another
    // Host header: the receiver itself refuses that case, the handshake does not.
    const trusted = await runCli(['webhook-endpoint', '--url', url, '--merchant-id', MERCHANT, '--secret', SECRET, '--json', json], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
    });
    expect(trusted.code, trusted.stdout).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.cases.find((c) => c.id === 'webhook_refuses/host-header-chosen-by-sender')!.got).toEqual({ http_status: 403 });
  });

  it('reports an endpoint that does not answer as an error, and refuses bad arguments with exit 2', async () => {
    const run = await runCli([
      'webhook-endpoint',
      '--url',
      'http://127.0.0.1:9/nothing',
      '--merchant-id',
      'm',
      '--secret',
      's',
      '--timeout-ms',
      '500',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/the request failed/);
    expect((await runCli(['webhook-endpoint', '--url', 'ftp://x', '--merchant-id', 'm', '--secret', 's'])).code).toBe(2);
    expect((await runCli(['webhook-endpoint', '--url', 'http://x'])).code).toBe(2);
  });
});
