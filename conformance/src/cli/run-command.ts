// `pay-conformance run`: its options, the vectors chosen, the suite replayed against the
// implementation (a progress bar on a terminal), and the reports.
import { resolve } from 'node:path';
import { emit } from './emit.js';
import { REPORT_OPTIONS, UsageError, list, parseOptions, positiveInt, type Reports } from './options.js';
import { REFERENCE, referenceArgv } from './runner.js';
import { splitCommandLine } from '../harness/command-line.js';
import { DEFAULT_MAX_RESTARTS, runSuite, type RunOptions } from '../harness/run.js';
import { selectCases } from '../harness/selection.js';
import { defaultSuite, loadSuite } from '../harness/vectors.js';
import { secretOf } from '../http/redact.js';
import { progressLine } from '../report/human.js';
import { DEFAULT_START_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, FAILED_STATUSES, type RunResult } from '../types.js';

/** The options of `run`, as parsed. */
export interface RunArgs extends Reports {
  impl?: string;
  vectors?: string;
  category?: string[];
  id?: string[];
  'timeout-ms'?: string;
  'start-timeout-ms'?: string;
  'fail-fast'?: boolean;
  strict?: boolean;
  'max-restarts'?: string;
}

/** Parses the arguments of `run`. */
export function parseRun(args: string[]): RunArgs {
  return parseOptions(args, {
    impl: { type: 'string' },
    vectors: { type: 'string' },
    category: { type: 'string', multiple: true, short: 'c' },
    id: { type: 'string', multiple: true },
    ...REPORT_OPTIONS,
    'fail-fast': { type: 'boolean' },
    strict: { type: 'boolean' },
    'max-restarts': { type: 'string' },
    'start-timeout-ms': { type: 'string' },
  });
}

/** On a terminal, a progress line on stderr after each case (the count failed so far with it). */
function progress(): Pick<RunOptions, 'onCase'> {
  let failedSoFar = 0;
  return {
    onCase: (r, done, total) => {
      if (FAILED_STATUSES.has(r.status)) failedSoFar++;
      process.stderr.write(progressLine(done, total, r.id, failedSoFar, process.stderr.columns));
    },
  };
}

/** What `run` replays, against what, with which limits: the options runSuite takes. */
export function runOptionsOf(a: RunArgs): RunOptions {
  const timeoutMs = positiveInt(a['timeout-ms'], '--timeout-ms', DEFAULT_TIMEOUT_MS);
  const startTimeoutMs = positiveInt(a['start-timeout-ms'], '--start-timeout-ms', DEFAULT_START_TIMEOUT_MS);
  const maxRestarts = positiveInt(a['max-restarts'], '--max-restarts', DEFAULT_MAX_RESTARTS, true);
  let argv: string[];
  try {
    argv = a.impl === undefined ? referenceArgv() : splitCommandLine(a.impl);
  } catch (e) {
    throw new UsageError(`--impl: ${(e as Error).message}`);
  }
  return {
    suite: selectCases(a.vectors === undefined ? defaultSuite() : loadSuite(resolve(a.vectors)), {
      categories: list(a.category),
      ids: list(a.id),
    }),
    argv,
    command: a.impl ?? REFERENCE,
    timeoutMs,
    startTimeoutMs,
    failFast: a['fail-fast'] ?? false,
    maxRestarts,
  };
}

/** Replays the chosen vectors against the implementation and reports; returns the exit code. */
export async function commandRun(a: RunArgs): Promise<number> {
  const options = runOptionsOf(a);
  const onTerminal = process.stderr.isTTY === true;
  const result: RunResult = await runSuite({ ...options, ...(onTerminal ? progress() : {}) });
  if (onTerminal) process.stderr.write(`\r${' '.repeat(Math.max(20, (process.stderr.columns ?? 80) - 1))}\r`);
  // The vectors' secrets are never copied into a report; an implementation may still echo one back
  // (in an error, on stderr): the report directory masks each.
  const secrets = new Set(options.suite.categories.flatMap((c) => c.vectors.map((v) => v.input['secret'])));
  const sensitive = [...secrets].flatMap((s) => (typeof s === 'string' && s ? secretOf(s) : []));
  return emit(result, a, a.strict ?? false, sensitive);
}
