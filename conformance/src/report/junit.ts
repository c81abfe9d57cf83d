// JUnit XML: one testsuite per category, one testcase per vector.
import { xmlEscape } from './escape.js';
import type { CaseResult, RunResult } from '../types.js';

const secs = (ms: number) => (ms / 1000).toFixed(3);

function testcase(c: CaseResult): string {
  const head = `    <testcase classname="${xmlEscape(c.category)}" name="${xmlEscape(c.id)}" time="${secs(c.duration_ms)}"`;
  const body: string[] = [];
  const detail = [c.diagnosis ?? '', `expected: ${JSON.stringify(c.expected)}`, `got: ${JSON.stringify(c.got)}`].join('\n');
  if (c.status === 'skip') body.push(`      <skipped message="${xmlEscape(c.diagnosis ?? 'skipped')}"/>`);
  else if (c.status === 'fail') {
    body.push(
      `      <failure type="${xmlEscape(c.mistake ?? (c.reason_mismatch ? 'reason_mismatch' : 'mismatch'))}" message="${xmlEscape(firstLine(c.diagnosis))}">${xmlEscape(detail)}</failure>`,
    );
  } else if (c.status !== 'pass') {
    body.push(`      <error type="${c.status}" message="${xmlEscape(firstLine(c.diagnosis))}">${xmlEscape(detail)}</error>`);
  }
  if (c.stderr) body.push(`      <system-err>${xmlEscape(c.stderr)}</system-err>`);
  return body.length ? `${head}>\n${body.join('\n')}\n    </testcase>` : `${head}/>`;
}

const firstLine = (s: string | undefined) => (s ?? '').split('\n')[0] ?? '';

/** The JUnit XML report of a run. */
export function toJunit(result: RunResult): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = result.cases;
  const count = (cs: CaseResult[], ...st: string[]) => cs.filter((c) => st.includes(c.status)).length;
  lines.push(
    `<testsuites name="${xmlEscape(`${result.suite} ${result.suite_version}`)}" tests="${all.length}" failures="${count(all, 'fail')}" errors="${count(all, 'error', 'timeout', 'crash')}" skipped="${count(all, 'skip')}" time="${secs(result.duration_ms)}">`,
  );
  for (const cat of result.categories) {
    const cs = all.filter((c) => c.category === cat.category);
    const time = cs.reduce((t, c) => t + c.duration_ms, 0);
    lines.push(
      `  <testsuite name="${xmlEscape(cat.category)}" tests="${cs.length}" failures="${count(cs, 'fail')}" errors="${count(cs, 'error', 'timeout', 'crash')}" skipped="${count(cs, 'skip')}" time="${secs(time)}">`,
    );
    for (const c of cs) lines.push(testcase(c));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
