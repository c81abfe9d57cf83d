// TAP version 13: one test point per case, YAML diagnostics on failures.
import type { RunResult } from '../types.js';

/** A YAML double-quoted scalar (JSON strings are valid ones). */
const yamlString = (s: string) => JSON.stringify(s);
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').replace(/#/g, '\\#');

/** The TAP version 13 report of a run. */
export function toTap(result: RunResult): string {
  const out = ['TAP version 13', `1..${result.cases.length}`];
  result.cases.forEach((c, i) => {
    const n = i + 1;
    const name = oneLine(c.id);
    if (c.status === 'pass') {
      out.push(`ok ${n} - ${name}`);
      if (c.child_exited_after)
        out.push(`# the child exited right after answering ${name} (code ${c.child_exited_after.code ?? c.child_exited_after.signal})`);
    } else if (c.status === 'skip') {
      out.push(`ok ${n} - ${name} # SKIP ${oneLine(c.diagnosis ?? 'unsupported')}`);
    } else {
      out.push(`not ok ${n} - ${name}`);
      out.push('  ---');
      out.push(`  status: ${c.status}`);
      out.push(`  category: ${yamlString(c.category)}`);
      if (c.diagnosis) out.push(`  message: ${yamlString(c.diagnosis)}`);
      if (c.mistake) out.push(`  mistake: ${yamlString(c.mistake)}`);
      out.push(`  expected: ${JSON.stringify(c.expected)}`);
      out.push(`  got: ${JSON.stringify(c.got)}`);
      if (c.stderr) out.push(`  stderr: ${yamlString(c.stderr)}`);
      out.push('  ...');
    }
  });
  if (result.implementation.hello_error) out.push(`# the implementation did not start: ${oneLine(result.implementation.hello_error)}`);
  if (result.stopped_early) out.push(`# stopped early: ${oneLine(result.stopped_early)}`);
  if (result.child_hint) out.push(`# hint: ${oneLine(result.child_hint)}`);
  return `${out.join('\n')}\n`;
}
