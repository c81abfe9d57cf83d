// The outage test of tests/, run by each framework a merchant might use (Vitest, Jest, node:test)
// as that framework's own command runs it, read from its own report: each must find its one test
// and pass it. Beside it, in the same run, a copy with a wrong expectation, so a runner that
// reported nothing (or everything) as passed cannot look green. One run of each framework for both
// files: a framework's start is paid once, and its report still gives each file's own verdict.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = join(import.meta.dirname, '..');
const bin = (name) => join(here, 'node_modules', '.bin', name);
const run = (cmd, args, env = {}) =>
  promisify(execFile)(cmd, args, { cwd: here, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1', ...env } }).then(
    (done) => ({ code: 0, ...done }),
    (failed) => ({ code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }),
  );

/** Passed and failed tests of `file` in a Jest-shaped JSON report (Vitest writes the same shape). */
const jsonCounts = (report, { file }) => {
  const results = JSON.parse(report).testResults.filter((r) => r.name === join(here, file));
  const statuses = results.flatMap((r) => r.assertionResults.map((a) => a.status));
  return { passed: statuses.filter((s) => s === 'passed').length, failed: statuses.filter((s) => s === 'failed').length };
};
/** The whole run's passed and failed tests in a Jest-shaped JSON report. */
const jsonTotals = (report) => {
  const r = JSON.parse(report);
  return { passed: r.numPassedTests, failed: r.numFailedTests };
};

/**
 * Each framework's command for some files, and how to read from its report the passed and failed
 * counts of one file (its path, and its test's title) and of the whole run.
 */
const FRAMEWORKS = {
  vitest: {
    file: 'tests/outage.vitest.test.mjs',
    // The dot reporter beside the JSON one: an error from outside a test (an unhandled rejection)
    // fails the run but is in no JSON report, only in what the run prints.
    run: async (files, report) =>
      run(bin('vitest'), [
        'run',
        '--config',
        'tests/vitest.config.mjs',
        ...files,
        '--reporter=json',
        '--reporter=dot',
        `--outputFile.json=${report}`,
      ]),
    counts: jsonCounts,
    totals: jsonTotals,
  },
  jest: {
    file: 'tests/outage.jest.test.mjs',
    run: async (files, report) =>
      run(
        process.execPath,
        [
          bin('jest').replace(/\.bin\/jest$/, 'jest/bin/jest.js'),
          '--rootDir',
          'tests',
          '--testMatch',
          ...files.map((file) => `**/${basename(file)}`),
          // Jest's own limit (5 s) is shorter than an embedded PGlite's start on a loaded machine.
          '--testTimeout',
          '60000',
          '--json',
          `--outputFile=${report}`,
        ],
        {
          NODE_OPTIONS: '--experimental-vm-modules --no-warnings',
        },
      ),
    counts: jsonCounts,
    totals: jsonTotals,
  },
  'node:test': {
    file: 'tests/outage.node.test.mjs',
    run: async (files, report) =>
      run(process.execPath, ['--test', '--test-reporter=tap', `--test-reporter-destination=${report}`, ...files]),
    // Node 20's TAP names a passed test's title alone, not its file: the wrong copy's test has its own title.
    counts: (tap, { title }) => {
      const verdicts = [...tap.matchAll(/^(ok|not ok) \d+ - (.*)$/gm)].filter((m) => m[2] === title).map((m) => m[1]);
      return { passed: verdicts.filter((v) => v === 'ok').length, failed: verdicts.filter((v) => v === 'not ok').length };
    },
    totals: (tap) => ({ passed: Number(/^# pass (\d+)$/m.exec(tap)?.[1]), failed: Number(/^# fail (\d+)$/m.exec(tap)?.[1]) }),
  },
};

/** The test's title in each file of tests/, and its wrong copy's. */
const TITLE = 'an order paid while the receiver is down for two hours is found by the reconciler';
const WRONG_TITLE = `${TITLE} (expecting 09:16)`;

/** Runs the framework on its file and on a copy expecting 09:16 (the order is paid at 09:15), once. */
async function runBoth(framework) {
  const dir = mkdtempSync(join(tmpdir(), 'pay-framework-'));
  const wrong = framework.file.replace('outage.', 'outage-wrong.');
  try {
    const source = readFileSync(join(here, framework.file), 'utf8');
    expect(source).toContain(`test('${TITLE}'`);
    writeFileSync(join(here, wrong), source.replace('09:15:00Z', '09:16:00Z').replace(`test('${TITLE}'`, `test('${WRONG_TITLE}'`));
    const result = await framework.run([framework.file, wrong], join(dir, 'report'));
    return { ...result, wrong, report: readFileSync(join(dir, 'report'), 'utf8') };
  } finally {
    rmSync(join(here, wrong), { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(Object.entries(FRAMEWORKS))('%s', (_name, framework) => {
  let both;
  const ran = () => {
    both ??= runBoth(framework);
    return both;
  };

  it('runs the outage test and passes it', async () => {
    const result = await ran();
    expect(framework.counts(result.report, { file: framework.file, title: TITLE })).toEqual({ passed: 1, failed: 0 });
    // Nothing else went wrong in the run (what its exit code would say were this file alone): its
    // one failure is the wrong copy's test, and no error came from outside a test.
    expect(framework.totals(result.report), `${result.stdout}\n${result.stderr}`).toEqual({ passed: 1, failed: 1 });
    expect(`${result.stdout}\n${result.stderr}`).not.toMatch(/unhandled/i);
  });

  it('fails it when the expectation is wrong (the report can say so)', async () => {
    const result = await ran();
    expect(result.code).not.toBe(0);
    expect(framework.counts(result.report, { file: result.wrong, title: WRONG_TITLE })).toEqual({ passed: 0, failed: 1 });
  });
});
