// `pay-conformance report DIR…`: report directories (written here by the same code --report
// uses) merged into one table, checked against tables written out by hand; and every kind of bad
// input refused with a ReportInputError that names the file and the field, which the CLI turns
// into exit 2 with that message.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportDir } from '../src/cli/report-dir.js';
import { ReportInputError } from '../src/errors.js';
import { mergeSummaries } from '../src/report/merge.js';
import { readSummary } from '../src/report/read-summary.js';
import { tableMarkdown } from '../src/report/table-markdown.js';
import type { CaseStatus } from '../src/types.js';
import { aCase, aRun, helloOf } from './report-runs.js';
import { runCli, tmp } from './helpers.js';

const context = { toolkit: { name: '@pay/conformance', version: '0.0.0' }, exit_code: 1 };
const root = tmp();

/** A report directory under `root` for an implementation's run with these verdicts per group. */
function reportDir(name: string, run: ReturnType<typeof aRun>): string {
  const dir = join(root, name);
  writeReportDir(dir, run, context, []);
  return dir;
}
const casesOf = (groups: Record<string, CaseStatus[]>) =>
  Object.entries(groups).flatMap(([g, verdicts]) => verdicts.map((v, i) => aCase(`${g}/c${i}`, v)));

const goClient = reportDir(
  'go-client',
  aRun(casesOf({ client_bytes: ['pass', 'pass'], client_answers: ['pass', 'fail'], client_errors: ['fail', 'timeout', 'skip'] }), {
    hello: helloOf('pay-go', '1.2.3'),
  }),
);
const tsClient = reportDir(
  'ts-client',
  aRun(casesOf({ client_bytes: ['pass', 'pass'], client_answers: ['pass', 'pass'], client_errors: ['pass', 'pass', 'pass'] }), {
    hello: helloOf('@pay/sign + @pay/client', 'unreleased 0.0.0'),
  }),
);
const goRun = reportDir('go-run', aRun(casesOf({ sign_request_get: ['pass'] }), { mode: 'run', hello: helloOf('pay-go', '1.2.3') }));
const service = reportDir(
  'service',
  aRun(casesOf({ server_accepts: ['pass', 'fail', 'fail'] }), { mode: 'server', hello: null, command: 'https://staging.example/pay' }),
);

const LEGEND =
  '🟢 every case passed · 🟠 some failed, at least half passed · 🔴 fewer than half passed · ⚪ no cases · — not judged in that mode';

describe('the merged table', () => {
  it('has a row per implementation (its modes together), a column per group, passes out of cases, coloured', () => {
    const table = mergeSummaries(
      [goClient, tsClient, goRun].map((dir) => ({ dir, summary: readSummary(dir) })),
      { versions: true },
    );
    expect(tableMarkdown(table, { badges: false })).toBe(
      [
        '| implementation | modes | `client_bytes` | `client_answers` | `client_errors` | `sign_request_get` | all |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
        '| @pay/sign + @pay/client unreleased 0.0.0 | client | 🟢 2/2 | 🟢 2/2 | 🟢 3/3 | — | 🟢 7/7 |',
        '| pay-go 1.2.3 | client, run | 🟢 2/2 | 🟠 1/2 | 🔴 0/3 | 🟢 1/1 | 🟠 4/8 |',
        '',
        LEGEND,
        '',
        'Judged by @pay/conformance 0.0.0.',
        '',
      ].join('\n'),
    );
  });

  it('prints it from the CLI, and writes README.md, index.html and a badge per implementation with --out', async () => {
    const out = join(root, 'merged');
    const run = await runCli(['report', service, goClient, tsClient, '--out', out, '--no-versions']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        '| implementation | modes | `server_accepts` | `client_bytes` | `client_answers` | `client_errors` | all |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
        '| @pay/sign + @pay/client | client | — | 🟢 2/2 | 🟢 2/2 | 🟢 3/3 | 🟢 7/7 |',
        '| https://staging.example/pay | server | 🔴 1/3 | — | — | — | 🔴 1/3 |',
        '| pay-go | client | — | 🟢 2/2 | 🟠 1/2 | 🔴 0/3 | 🔴 3/7 |',
        '',
        LEGEND,
        '',
      ].join('\n'),
    );
    expect(readdirSync(out).sort()).toEqual(['README.md', 'badges', 'index.html']);
    expect(readdirSync(join(out, 'badges')).sort()).toEqual(['https-staging-example-pay.svg', 'pay-go.svg', 'pay-sign-pay-client.svg']);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toContain('| pay-go | client | — | 🟢 2/2 | 🟠 1/2 | 🔴 0/3 | 🔴 3/7 | ![conformance: 3/7](badges/pay-go.svg) |');
    expect(readFileSync(join(out, 'badges', 'pay-go.svg'), 'utf8')).toContain('>3/7</text>');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<span class="tag t-red">3/7</span>');
    expect(html).not.toMatch(/0\.0\.0|<script/);
  });

  it('gives the same bytes for the same summaries, whenever and wherever they were merged', async () => {
    const [a, b] = [join(root, 'same-a'), join(root, 'same-b')];
    await runCli(['report', goClient, tsClient, '--out', a]);
    await runCli(['report', goClient, tsClient, '--out', b]);
    for (const f of ['README.md', 'index.html', 'badges/pay-go.svg']) {
      expect(readFileSync(join(a, f), 'utf8')).toBe(readFileSync(join(b, f), 'utf8'));
    }
    expect(readFileSync(join(a, 'README.md'), 'utf8')).not.toContain(root);
  });

  it('escapes names: a pipe or a link in a name cannot break the table', () => {
    const dir = reportDir('odd', aRun(casesOf({ g: ['pass'] }), { hello: helloOf('a | b [x](http://e.example) <i>') }));
    const md = tableMarkdown(mergeSummaries([{ dir, summary: readSummary(dir) }], { versions: false }), { badges: false });
    expect(md.split('\n')[2]).toBe('| a \\| b \\[x\\](http://e.example) \\<i\\> | client | 🟢 1/1 | 🟢 1/1 |');
  });
});

/** A copy of the go-client report directory with its summary changed by `edit`. */
function edited(name: string, edit: (s: Record<string, any>) => void): string {
  const dir = join(root, 'bad', name);
  mkdirSync(dir, { recursive: true });
  const summary = JSON.parse(readFileSync(join(goClient, 'summary.json'), 'utf8'));
  edit(summary);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  return dir;
}
/** A directory holding `text` as its summary.json. */
function holding(name: string, text: string): string {
  const dir = join(root, 'bad', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), text);
  return dir;
}

describe('bad input', () => {
  const file = (dir: string) => join(dir, 'summary.json');
  const cases: [string, () => string[], (dirs: string[]) => string, string, RegExp][] = [
    ['a directory that does not exist', () => [join(root, 'nowhere')], ([d]) => d!, '', /no such directory/],
    ['a file, not a directory', () => [file(goClient)], ([d]) => d!, '', /not a directory/],
    ['a directory with no summary.json', () => [root], ([d]) => file(d!), '', /missing: .* is not a report directory/],
    [
      'a summary that is not JSON',
      () => [holding('not-json', '{"schema": "pay-conformance-summary/1",')],
      ([d]) => file(d!),
      '',
      /not JSON/,
    ],
    [
      'JSON of another tool (the runner’s own --json report)',
      () => [holding('foreign', JSON.stringify({ report: 'pay-conformance', report_version: 1, cases: [] }))],
      ([d]) => file(d!),
      'schema',
      /nothing: not a pay-conformance summary/,
    ],
    ['JSON that is not an object', () => [holding('array', '[1, 2]')], ([d]) => file(d!), '(top level)', /must be an object/],
    [
      'a summary of another schema version',
      () => [edited('v2', (s) => (s.schema = 'pay-conformance-summary/2'))],
      ([d]) => file(d!),
      'schema',
      /version 2 is not one this runner reads/,
    ],
    [
      'a group total of the wrong type',
      () => [edited('type', (s) => (s.groups[1].total = '2'))],
      ([d]) => file(d!),
      'groups[1].total',
      /must be a whole number ≥ 0, got "2"/,
    ],
    [
      'a count the cases do not bear out',
      () => [edited('count', (s) => (s.counts.pass += 1))],
      ([d]) => file(d!),
      'counts.pass',
      /says 4, but 3 of its cases/,
    ],
    [
      'a group total the cases do not bear out',
      () => [edited('total', (s) => (s.groups[2].total = 4))],
      ([d]) => file(d!),
      'groups[2].total',
      /says 4, but it lists 3 cases/,
    ],
    [
      'a verdict no report gives',
      () => [edited('verdict', (s) => (s.cases[0].verdict = 'passed'))],
      ([d]) => file(d!),
      'cases[0].verdict',
      /must be one of pass, fail/,
    ],
    [
      'an implementation without a name',
      () => [edited('name', (s) => delete s.implementation.name)],
      ([d]) => file(d!),
      'implementation.name',
      /must be a non-empty string, got nothing/,
    ],
    [
      'the same implementation and mode twice',
      () => [goClient, edited('twice', () => {})],
      ([, d]) => file(d!),
      'mode',
      /pay-go 1\.2\.3 in client mode is also in .*go-client/,
    ],
  ];

  it.each(cases)('%s: a ReportInputError naming the file and the field', (_what, dirs, fileOf, field, problem) => {
    const given = dirs();
    let error: unknown;
    try {
      mergeSummaries(
        given.map((dir) => ({ dir, summary: readSummary(dir) })),
        { versions: true },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReportInputError);
    const e = error as ReportInputError;
    expect([e.file, e.field]).toEqual([fileOf(given), field]);
    expect(e.message).toMatch(problem);
    expect(e.message.startsWith(`${fileOf(given)}${field ? `: ${field}` : ''}: `)).toBe(true);
  });

  it.each(cases)('%s: the CLI exits 2 and says which file and field', async (_what, dirs, fileOf, field, problem) => {
    const given = dirs();
    const run = await runCli(['report', ...given]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(problem);
    expect(run.stderr.startsWith(`pay-conformance: ${fileOf(given)}${field ? `: ${field}` : ''}: `)).toBe(true);
  });

  it('no directory at all is a usage error (exit 2)', async () => {
    const run = await runCli(['report']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/report needs at least one report directory/);
  });
});
