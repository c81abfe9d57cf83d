// The report a person reads: one line per category, then every failure with its diagnosis.
import { FAILED_STATUSES, type CaseResult, type RunResult } from '../types.js';
import { shownVersion } from '../version.js';

/** How the human report marks things: colours on a terminal, nothing otherwise. */
export interface Style {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
/** ANSI colours. */
export const COLOUR: Style = { green: wrap(32, 39), red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
const id = (s: string) => s;
/** No marks at all. */
export const PLAIN: Style = { green: id, red: id, yellow: id, dim: id, bold: id };

/** Colour only on a terminal, and never when NO_COLOR is set. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return PLAIN;
  return stream.isTTY === true ? COLOUR : PLAIN;
}

const indent = (text: string, pad: string) =>
  text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');

function counts(c: { passed: number; failed: number; skipped: number }, s: Style): string {
  const parts = [`${c.passed} passed`];
  parts.push(c.failed ? s.red(`${c.failed} failed`) : '0 failed');
  parts.push(c.skipped ? s.yellow(`${c.skipped} skipped`) : '0 skipped');
  return parts.join(', ');
}

function failure(r: CaseResult, s: Style): string {
  const lines = [`${s.red('✗')} ${s.bold(r.id)} ${s.dim(`[${r.status}]`)}`];
  if (r.diagnosis) lines.push(indent(r.diagnosis, '    '));
  if (r.stderr) lines.push(indent(`child stderr:\n${indent(r.stderr.replace(/\n$/, ''), '  ')}`, '    '));
  return lines.join('\n');
}

/** The report a person reads: a line per category, the failures with their diagnoses, the total. */
export function formatHuman(result: RunResult, s: Style): string {
  const out: string[] = [];
  const h = result.implementation.hello;
  // The vectors' suite has its own version; an HTTP mode's cases are the runner's, so its version is the runner's.
  const version = (result.mode ?? 'run') === 'run' ? result.suite_version : shownVersion(result.suite_version);
  out.push(
    `${s.bold(`${result.suite} ${version}`)} against ${h ? `${h.name} ${h.version} (${h.language})` : result.implementation.command}`,
  );
  if (result.implementation.hello_error) {
    out.push(s.red(`the implementation did not start: ${result.implementation.hello_error}`));
    const stderr = result.cases.find((c) => c.stderr)?.stderr;
    if (stderr) out.push(indent(`child stderr:\n${indent(stderr.replace(/\n$/, ''), '  ')}`, '    '));
  }
  const width = Math.max(...result.categories.map((c) => c.category.length), 8);
  for (const c of result.categories) {
    const mark = c.failed ? s.red('✗') : c.total === 0 ? s.dim('-') : c.passed === 0 && c.skipped ? s.yellow('○') : s.green('✓');
    out.push(`${mark} ${c.category.padEnd(width)}  ${counts(c, s)}`);
  }
  const failed = result.cases.filter((r) => FAILED_STATUSES.has(r.status));
  const listed = failed.filter((r) => r.status !== 'not_run');
  if (listed.length && !result.implementation.hello_error) {
    out.push('', s.bold('Failures'));
    const shown = listed.slice(0, 200);
    for (const r of shown) out.push(failure(r, s));
    if (listed.length > shown.length) out.push(s.dim(`… and ${listed.length - shown.length} more (see --json)`));
  }
  const notRun = failed.length - listed.length;
  if (notRun && !result.implementation.hello_error) out.push('', s.red(`${notRun} case(s) not run`));
  const exits = result.cases.filter((r) => r.child_exited_after);
  if (exits.length) {
    const code = (r: CaseResult) => `code ${r.child_exited_after!.code ?? r.child_exited_after!.signal}`;
    const shown = exits
      .slice(0, 10)
      .map((r) => `${r.id} (${code(r)})`)
      .join(', ');
    out.push(
      '',
      s.yellow(
        `the child exited right after answering ${shown}${exits.length > 10 ? `, and ${exits.length - 10} more` : ''}; the next case ran on a fresh child`,
      ),
    );
  }
  if (result.child_hint) out.push(s.yellow(`hint: ${result.child_hint}`));
  const acceptable = result.cases.filter((r) => r.chosen_verdict);
  if (acceptable.length) {
    out.push('', s.dim(`open verdicts (either passes): ${acceptable.map((r) => `${r.id} → ${r.chosen_verdict}`).join('; ')}`));
  }
  const total = {
    passed: result.cases.filter((r) => r.status === 'pass').length,
    failed: failed.length,
    skipped: result.cases.filter((r) => r.status === 'skip').length,
  };
  out.push('');
  if (result.stopped_early) out.push(s.yellow(`stopped early: ${result.stopped_early}`));
  if (result.restarts) out.push(s.yellow(`the child was restarted ${result.restarts} time(s)`));
  const named = new Map<string, number>();
  for (const r of listed) if (r.mistake) named.set(r.mistake, (named.get(r.mistake) ?? 0) + 1);
  if (named.size) {
    out.push(`mistakes named: ${[...named].map(([m, n]) => `${m} (${n})`).join(', ')}`);
  }
  const mismatches = failed.filter((r) => r.reason_mismatch).length;
  if (mismatches) {
    out.push(
      `of the failures: ${failed.length - mismatches} wrong verdict(s) or signature(s), ${mismatches} reason mismatch(es) (right verdict, wrong reason code)`,
    );
  }
  out.push(`${total.failed ? s.red('FAIL') : s.green('PASS')} ${counts(total, s)} in ${result.duration_ms} ms`);
  return `${out.join('\n')}\n`;
}

/** A one-line progress indicator for a terminal (written with \r, cleared at the end). */
export function progressLine(done: number, total: number, current: string, failed: number, columns = 80): string {
  const width = 24;
  const filled = total ? Math.round((done / total) * width) : width;
  const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
  const text = `${bar} ${done}/${total}${failed ? ` (${failed} failed)` : ''} ${current}`;
  const room = Math.max(20, columns - 1);
  return `\r${[...text].slice(0, room).join('').padEnd(room)}`;
}
