// `--report DIR`: the three files of a report directory, written from one masked summary, so the
// JSON, the page and the badge can only ever show the same things.
//   summary.json  the summary (src/report/summary-file.ts), what `pay-conformance report` merges
//   index.html    the page (src/report/html.ts)
//   badge.svg     "conformance | passed/total" (src/report/badge.ts)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.js';
import type { Sensitive } from '../http/redact.js';
import { badgeSvg } from '../report/badge.js';
import { toHtmlPage } from '../report/html.js';
import { reportMask } from '../report/mask.js';
import { SUMMARY_FILE, toSummaryFile, type SummaryContext } from '../report/summary-file.js';
import type { RunResult } from '../types.js';

/** Writes DIR/summary.json, DIR/index.html and DIR/badge.svg; a failure is the harness's (exit 2). */
export function writeReportDir(dir: string, result: RunResult, context: SummaryContext, sensitive: readonly Sensitive[]): void {
  const summary = reportMask(sensitive)(toSummaryFile(result, context));
  const files: [string, string][] = [
    [SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`],
    ['index.html', toHtmlPage(summary)],
    ['badge.svg', badgeSvg(summary.counts.pass, summary.total)],
  ];
  try {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
  } catch (e) {
    throw new HarnessError(`cannot write the report directory ${dir}: ${(e as Error).message}`);
  }
}
