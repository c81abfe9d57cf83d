// The reference implementation (@pay/sign through the bundled adapter) passes the whole golden
// suite on every runtime it claims, on both HMAC backends: Deno and Bun from their npm packages,
// and Node with the pure-JavaScript backend that browsers and edge workers use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, goldenVectors, pkgDir, runCli, tmp, type JsonReport } from './helpers.js';

const bin = (name: string) => JSON.stringify(join(pkgDir, 'node_modules', '.bin', name));
const cli = JSON.stringify(cliPath);
const runtimes: [string, string, RegExp][] = [
  ['Node, pure-JavaScript backend (pay-noble)', `node --conditions=pay-noble ${cli} adapter`, /Node\.js/],
  ['Deno, default backend', `${bin('deno')} run -A ${cli} adapter`, /Deno/],
  ['Deno, pure-JavaScript backend', `${bin('deno')} run -A --conditions=pay-noble ${cli} adapter`, /Deno/],
  ['Bun', `${bin('bun')} ${cli} adapter`, /Bun/],
];
const dir = tmp();

describe.each(runtimes)('%s', (_name, impl, language) => {
  it('passes every golden vector', async () => {
    const json = join(dir, `${_name.replace(/\W+/g, '-')}.json`);
    const run = await runCli(['run', '--vectors', goldenVectors, '--impl', impl, '--json', json], { timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.implementation.language).toMatch(language);
    expect(report.summary.total).toBeGreaterThan(160);
    expect(report.summary).toMatchObject({ passed: report.summary.total, failed: 0, skipped: 0 });
  });
});
