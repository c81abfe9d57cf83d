// `--report DIR` on every mode, end to end: the built CLI against real implementations on loopback
// (a broken signing adapter over the protocol, a broken service and the embedded receiver over
// HTTP, a broken SDK in client mode). Each directory's summary is checked against the --json report
// of the same run (another writer, the one the rest of the suite trusts): the same cases, verdicts
// and mistakes. The secret and the card never show; then `report` merges the four directories.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain JavaScript fixture
import { startService } from './fixtures/service.mjs';
import { expectNothingSecret, RUN_LIMIT_MS } from './client-runs.js';
import { broken, brokenClientJs, fixtureVectors, runCli, tmp, type JsonReport } from './helpers.js';
import { startEmbeddedReceiver } from '../src/http/embedded-receiver.js';
import type { SummaryFile } from '../src/report/summary-file.js';

const dir = tmp();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

/** The report directory a run wrote, and its --json report. */
function outputs(name: string) {
  const read = (f: string) => readFileSync(join(dir, name, f), 'utf8');
  return {
    summary: JSON.parse(read('summary.json')) as SummaryFile,
    files: { json: read('summary.json'), html: read('index.html'), svg: read('badge.svg') },
    report: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as JsonReport & { mode: string },
  };
}

/** The summary says what the --json report of the same run says, case by case and in its counts. */
function expectAgreement(summary: SummaryFile, report: JsonReport & { mode: string }): void {
  expect(summary.mode).toBe(report.mode);
  expect(summary.exit_code).toBe(report.exit_code);
  expect(summary.cases.map((c) => [c.id, c.group, c.verdict, c.mistake])).toEqual(
    report.cases.map((c) => [c.id, c.category, c.status, c.mistake ?? null]),
  );
  expect([summary.total, summary.counts.pass, summary.counts.skip]).toEqual([
    report.summary.total,
    report.summary.passed,
    report.summary.skipped,
  ]);
  for (const g of summary.groups) {
    const c = report.categories.find((x) => x.category === g.id)!;
    expect([g.total, g.counts.pass, g.counts.skip], g.id).toEqual([c.total, c.passed, c.skipped]);
  }
  const badge = `>${summary.counts.pass}/${summary.total}</text>`;
  expect(readFileSync(join(dir, summary.mode === 'run' ? 'run' : summary.mode, 'badge.svg'), 'utf8')).toContain(badge);
}

const reportArgs = (name: string) => ['--report', join(dir, name), '--json', join(dir, `${name}.json`)];

describe('--report DIR', () => {
  it('run: the implementation named from hello, each mistake named, the vectors’ secrets masked', async () => {
    const run = await runCli(['run', '--vectors', fixtureVectors, '--impl', broken('--mistake body_reserialised'), ...reportArgs('run')]);
    expect(run.code).toBe(1);
    const { summary, files, report } = outputs('run');
    expectAgreement(summary, report);
    expect([summary.implementation.name, summary.implementation.name_from]).toEqual(['broken-adapter', 'hello']);
    expect(summary.cases.filter((c) => c.verdict === 'fail').map((c) => c.mistake)).toContain('body_reserialised');
    expect(files.html).toContain('<code>body_reserialised</code>');
    for (const text of Object.values(files)) expect(text).not.toMatch(/sk_test_[A-Za-z0-9]{8}/);
  });

  it('server: named by --name, the service’s mistake shown, its secret masked', async () => {
    const secret = 'sk_test_report_server_secret_0123';
    const s = await startService({ merchantId: 'm_report', secret, mistake: 'ignores_expiry' });
    closers.push(() => s.close());
    const run = await runCli(
      [
        'server',
        ...['--base-url', s.baseUrl, '--card-proxy-url', s.cardProxyUrl, '--merchant-id', 'm_report', '--secret', secret],
        ...['--timeout-ms', '10000', '--name', 'fixture service (ignores expiry)', ...reportArgs('server')],
      ],
      { timeoutMs: 120_000 },
    );
    expect(run.code).toBe(1);
    const { summary, files, report } = outputs('server');
    expectAgreement(summary, report);
    expect([summary.implementation.name, summary.implementation.name_from]).toEqual(['fixture service (ignores expiry)', 'option']);
    expect(summary.implementation.command).toBe(`${s.baseUrl} (card proxy ${s.cardProxyUrl}, merchant m_report)`);
    const expired = summary.cases.find((c) => c.id.endsWith('/expired'))!;
    expect(expired.verdict).toBe('fail');
    expect(files.html).toContain(`case-${expired.id}`);
    for (const text of Object.values(files)) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('4242424242424242');
    }
  }, 150_000);

  it('webhook-endpoint: named by the address when given no name; every case passes on the embedded receiver', async () => {
    const r = await startEmbeddedReceiver();
    closers.push(() => r.close());
    const run = await runCli([
      'webhook-endpoint',
      '--url',
      r.url,
      '--merchant-id',
      r.merchantId,
      '--secret',
      r.secret,
      ...reportArgs('webhook-endpoint'),
    ]);
    expect(run.code).toBe(0);
    const { summary, files, report } = outputs('webhook-endpoint');
    expectAgreement(summary, report);
    expect([summary.implementation.name, summary.implementation.name_from]).toEqual([`${r.url} (merchant ${r.merchantId})`, 'command']);
    expect(summary.counts.pass).toBe(summary.total);
    expect(files.svg).toContain('fill="#2b7a2b"');
    for (const text of Object.values(files)) expect(text).not.toContain(r.secret);
  }, 120_000);

  it(
    'client: an SDK whose errors carry the secret and the card: the directory shows neither',
    async () => {
      const run = await runCli(
        ['client', '--impl', `${brokenClientJs('secret_in_error')} --answer-leaks`, '--id', 'client_errors/*', ...reportArgs('client')],
        {
          timeoutMs: RUN_LIMIT_MS,
        },
      );
      expect(run.code).toBe(1);
      const { summary, files, report } = outputs('client');
      expectAgreement(summary, report);
      expect(summary.cases.some((c) => c.mistake === 'secret_in_error')).toBe(true);
      for (const [name, text] of Object.entries(files)) expectNothingSecret(text, name);
    },
    RUN_LIMIT_MS,
  );

  it('a directory that cannot be written is the harness failing: exit 2, naming it', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const where = join(file, 'report');
    const run = await runCli(['run', '--vectors', fixtureVectors, '--impl', broken(''), '--report', where]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`pay-conformance: cannot write the report directory ${where}`);
  });

  it('merges the four directories into one table', async () => {
    const run = await runCli(['report', ...['run', 'server', 'webhook-endpoint', 'client'].map((m) => join(dir, m))]);
    expect(run.code).toBe(0);
    const rows = run.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| implementation') && !l.startsWith('| ---'));
    expect(rows).toHaveLength(4);
    expect(rows.find((l) => l.startsWith('| fixture service (ignores expiry) | server |'))).toBeDefined();
    expect(rows.find((l) => l.startsWith('| broken-adapter 0.0.0 | run |'))).toBeDefined();
  });
});
