// `pay-conformance report DIR… [--out DIR] [--no-versions]`: the summaries of several report
// directories (`--report DIR` of any mode) merged into one table, printed as Markdown and, with
// --out, written as README.md, index.html and a badge per implementation. A directory that cannot
// be merged is a ReportInputError naming the file and the field: exit 2, as the harness's own
// failures are. The exit code says nothing of the implementations: their runs said it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './options.js';
import { HarnessError } from '../errors.js';
import { badgeSvg } from '../report/badge.js';
import { mergeSummaries } from '../report/merge.js';
import { readSummary } from '../report/read-summary.js';
import { tableHtml } from '../report/table-html.js';
import { resultsReadme, tableMarkdown } from '../report/table-markdown.js';

/** Merges the report directories given; returns the exit code (0: the table was written). */
export function commandReport(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string' }, 'no-versions': { type: 'boolean' } },
  });
  if (positionals.length === 0) throw new UsageError('report needs at least one report directory (written by --report DIR)');
  const table = mergeSummaries(
    positionals.map((dir) => ({ dir, summary: readSummary(dir) })),
    { versions: !values['no-versions'] },
  );
  if (values.out) {
    const out = values.out;
    try {
      mkdirSync(join(out, 'badges'), { recursive: true });
      writeFileSync(join(out, 'README.md'), resultsReadme(table));
      writeFileSync(join(out, 'index.html'), tableHtml(table));
      for (const r of table.rows) writeFileSync(join(out, 'badges', `${r.slug}.svg`), badgeSvg(r.all.passed, r.all.total));
    } catch (e) {
      throw new HarnessError(`cannot write the merged report into ${out}: ${(e as Error).message}`);
    }
  }
  process.stdout.write(tableMarkdown(table, { badges: false }));
  return 0;
}
