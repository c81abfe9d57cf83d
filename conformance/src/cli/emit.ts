// A finished run of any mode, out: the report files asked for (and the report directory, masked
// with what the command knows is secret), TAP on stdout when asked, the human report, and the exit
// code.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { exitCodeOf } from './exit-code.js';
import type { Reports } from './options.js';
import { writeReportDir } from './report-dir.js';
import { RUNNER } from './runner.js';
import { HarnessError } from '../errors.js';
import type { Sensitive } from '../http/redact.js';
import { formatHuman, styleFor } from '../report/human.js';
import { toJsonReport } from '../report/json.js';
import { toJunit } from '../report/junit.js';
import { toTap } from '../report/tap.js';
import type { RunResult } from '../types.js';

/** Writes a report file, its directory made if need be; a failure is the harness's (exit 2). */
function writeReport(file: string, text: string): void {
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new HarnessError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/**
 * Writes the reports asked for and the human one (on stderr when TAP takes stdout); returns the exit
 * code. `sensitive` is what the report directory masks besides what looks like card data or a key.
 */
export function emit(result: RunResult, r: Reports, strict = false, sensitive: readonly Sensitive[] = []): 0 | 1 {
  const code = exitCodeOf(result, { strict });
  const human = r.tap ? process.stderr : process.stdout;
  if (r.json) writeReport(r.json, toJsonReport(result, { runner: RUNNER, exit_code: code }));
  if (r.report) writeReportDir(r.report, result, { name: r.name, toolkit: RUNNER, exit_code: code }, sensitive);
  if (r.junit) writeReport(r.junit, toJunit(result));
  if (r.tap) process.stdout.write(toTap(result));
  human.write(formatHuman(result, styleFor(human)));
  return code;
}
