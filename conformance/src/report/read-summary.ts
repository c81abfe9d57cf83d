// A report directory read back for `pay-conformance report`: its summary.json found, parsed and
// checked field by field before anything is merged. Whatever is wrong is a ReportInputError naming
// the file and the field (`groups[2].counts.pass`), never a TypeError deep in the merge: the
// directory missing, the file not JSON, JSON that is not a summary (another tool's, or none), a
// summary of another schema version, a field of the wrong type, or counts that disagree with the
// cases listed (a summary edited by hand, or cut short).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SUMMARY_FILE, SUMMARY_SCHEMA, VERDICTS, countVerdicts, type SummaryFile, type VerdictCounts } from './summary-file.js';
import { ReportInputError } from '../errors.js';
import type { CaseStatus } from '../types.js';

/** The schema's name without its version: a summary of another version still starts with it. */
const SCHEMA_NAME = SUMMARY_SCHEMA.slice(0, SUMMARY_SCHEMA.lastIndexOf('/') + 1);
const MODES = ['run', 'server', 'webhook-endpoint', 'client'] as const;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const shown = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 80));

/** The checks of one file: each names its field when it fails. */
class Fields {
  constructor(readonly file: string) {}
  fail(field: string, problem: string): never {
    throw new ReportInputError(this.file, field, problem);
  }
  object(v: unknown, field: string): Obj {
    return isObject(v) ? v : this.fail(field, `must be an object, got ${shown(v)}`);
  }
  array(v: unknown, field: string): unknown[] {
    return Array.isArray(v) ? v : this.fail(field, `must be an array, got ${shown(v)}`);
  }
  text(v: unknown, field: string): string {
    return typeof v === 'string' && v !== '' ? v : this.fail(field, `must be a non-empty string, got ${shown(v)}`);
  }
  textOrNull(v: unknown, field: string): string | null {
    return v === null ? null : this.text(v, field);
  }
  count(v: unknown, field: string): number {
    return isCount(v) ? v : this.fail(field, `must be a whole number ≥ 0, got ${shown(v)}`);
  }
  oneOf<T extends string>(v: unknown, field: string, values: readonly T[]): T {
    return values.includes(v as T) ? (v as T) : this.fail(field, `must be one of ${values.join(', ')}, got ${shown(v)}`);
  }
  /** Counts per verdict: every verdict a whole number, and `expected` the one the cases give. */
  counts(v: unknown, field: string, expected: VerdictCounts, total: number): VerdictCounts {
    const o = this.object(v, field);
    for (const verdict of VERDICTS) {
      const n = this.count(o[verdict], `${field}.${verdict}`);
      if (n !== expected[verdict]) this.fail(`${field}.${verdict}`, `says ${n}, but ${expected[verdict]} of its cases have that verdict`);
    }
    const sum = VERDICTS.reduce((s, verdict) => s + expected[verdict], 0);
    if (sum !== total) this.fail(field.replace(/counts$/, 'total'), `says ${total}, but it lists ${sum} cases`);
    return expected;
  }
}

/** The summary.json of a report directory, read and checked. */
export function readSummary(dir: string): SummaryFile {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ReportInputError(dir, '', 'no such directory (give the directory a --report option wrote)');
  }
  if (!isDir) throw new ReportInputError(dir, '', 'not a directory (give the directory a --report option wrote, not a file in it)');
  const file = join(dir, SUMMARY_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ReportInputError(file, '', `missing: ${dir} is not a report directory (--report writes ${SUMMARY_FILE} into it)`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ReportInputError(file, '', `not JSON (${(e as Error).message})`);
  }
  return checkSummary(data, new Fields(file));
}

/** The schema first (a foreign file or another version is named as such), then every field merged. */
function checkSummary(data: unknown, f: Fields): SummaryFile {
  const top = f.object(data, '(top level)');
  const schema = top['schema'];
  if (typeof schema !== 'string' || !schema.startsWith(SCHEMA_NAME)) {
    f.fail('schema', `${shown(schema)}: not a pay-conformance summary (expected "${SUMMARY_SCHEMA}")`);
  }
  if (schema !== SUMMARY_SCHEMA) {
    f.fail('schema', `version ${schema.slice(SCHEMA_NAME.length)} is not one this runner reads (it reads "${SUMMARY_SCHEMA}")`);
  }
  const impl = f.object(top['implementation'], 'implementation');
  const toolkit = f.object(top['toolkit'], 'toolkit');
  const cases = f.array(top['cases'], 'cases').map((v, i) => {
    const c = f.object(v, `cases[${i}]`);
    return {
      id: f.text(c['id'], `cases[${i}].id`),
      group: f.text(c['group'], `cases[${i}].group`),
      verdict: f.oneOf<CaseStatus>(c['verdict'], `cases[${i}].verdict`, VERDICTS),
      mistake: f.textOrNull(c['mistake'], `cases[${i}].mistake`),
      evidence: f.object(c['evidence'], `cases[${i}].evidence`),
    };
  });
  const seen = new Set<string>();
  const groups = f.array(top['groups'], 'groups').map((v, i) => {
    const g = f.object(v, `groups[${i}]`);
    const id = f.text(g['id'], `groups[${i}].id`);
    if (seen.has(id)) f.fail(`groups[${i}].id`, `"${id}" is listed twice`);
    seen.add(id);
    const total = f.count(g['total'], `groups[${i}].total`);
    const mine = countVerdicts(cases.filter((c) => c.group === id).map((c) => c.verdict));
    return { id, total, counts: f.counts(g['counts'], `groups[${i}].counts`, mine, total) };
  });
  const stray = cases.findIndex((c) => !seen.has(c.group));
  if (stray >= 0) f.fail(`cases[${stray}].group`, `"${cases[stray]!.group}" is not one of the groups listed`);
  const total = f.count(top['total'], 'total');
  return {
    schema: SUMMARY_SCHEMA,
    implementation: {
      name: f.text(impl['name'], 'implementation.name'),
      name_from: f.oneOf(impl['name_from'], 'implementation.name_from', ['hello', 'option', 'command'] as const),
      version: f.textOrNull(impl['version'], 'implementation.version'),
      language: f.textOrNull(impl['language'], 'implementation.language'),
      command: f.text(impl['command'], 'implementation.command'),
    },
    mode: f.oneOf(top['mode'], 'mode', MODES),
    toolkit: { name: f.text(toolkit['name'], 'toolkit.name'), version: f.text(toolkit['version'], 'toolkit.version') },
    suite: f.text(top['suite'], 'suite'),
    suite_version: f.text(top['suite_version'], 'suite_version'),
    exit_code: f.count(top['exit_code'], 'exit_code'),
    notes: f.array(top['notes'], 'notes').map((n, i) => f.text(n, `notes[${i}]`)),
    total,
    counts: f.counts(top['counts'], 'counts', countVerdicts(cases.map((c) => c.verdict)), total),
    groups,
    cases,
  };
}
