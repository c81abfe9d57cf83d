// The outage test of tests/, run by each framework a merchant might use (Vitest, Jest, node:test)
// as that framework's own command runs it, read from its own report: each must find its one test
// and pass it. Then run again with a wrong expectation, so a runner that reported nothing (or
// everything) as passed cannot look green.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = join(import.meta.dirname, '..');
const bin = (name) => join(here, 'node_modules', '.bin', name);
const run = (cmd, args, env = {}) =>
  promisify(execFile)(cmd, args, { cwd: here, encoding: 'utf8', timeout: 180_000, env: { ...process.env, NO_COLOR: '1', ...env } }).then(
    (done) => ({ code: 0, ...done }),
    (failed) => ({ code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }),
  );

/** Each framework's command for one file, and how to read passed and failed counts from its report. */
const FRAMEWORKS = {
  vitest: {
    file: 'tests/outage.vitest.test.mjs',
    run: async (file, report) =>
      run(bin('vitest'), ['run', '--config', 'tests/vitest.config.mjs', file, '--reporter=json', `--outputFile=${report}`]),
    counts: (report) => {
      const r = JSON.parse(readFileSync(report, 'utf8'));
      return { passed: r.numPassedTests, failed: r.numFailedTests };
    },
  },
  jest: {
    file: 'tests/outage.jest.test.mjs',
    run: async (file, report) =>
      run(
        process.execPath,
        [
          bin('jest').replace(/\.bin\/jest$/, 'jest/bin/jest.js'),
          '--rootDir',
          'tests',
          '--testMatch',
          `**/${file.split('/').pop()}`,
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
    counts: (report) => {
      const r = JSON.parse(readFileSync(report, 'utf8'));
      return { passed: r.numPassedTests, failed: r.numFailedTests };
    },
  },
  'node:test': {
    file: 'tests/outage.node.test.mjs',
    run: async (file, report) => run(process.execPath, ['--test', '--test-reporter=tap', `--test-reporter-destination=${report}`, file]),
    counts: (report) => {
      const tap = readFileSync(report, 'utf8');
      return { passed: Number(/^# pass (\d+)$/m.exec(tap)?.[1]), failed: Number(/^# fail (\d+)$/m.exec(tap)?.[1]) };
    },
  },
};

describe.each(Object.entries(FRAMEWORKS))('%s', (_name, framework) => {
  it('runs the outage test and passes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-framework-'));
    try {
      const report = join(dir, 'report');
      const result = await framework.run(framework.file, report);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(framework.counts(report)).toEqual({ passed: 1, failed: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails it when the expectation is wrong (the report can say so)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-framework-'));
    const wrong = framework.file.replace('outage.', 'outage-wrong.');
    try {
      writeFileSync(join(here, wrong), readFileSync(join(here, framework.file), 'utf8').replace('09:15:00Z', '09:16:00Z'));
      const report = join(dir, 'report');
      const result = await framework.run(wrong, report);
      expect(result.code).not.toBe(0);
      expect(framework.counts(report)).toEqual({ passed: 0, failed: 1 });
    } finally {
      rmSync(join(here, wrong), { force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
