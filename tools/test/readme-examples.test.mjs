// Every ```js block in a published package's README runs, as written, against the built package
// (imports of the package's own name resolve through its exports map), and prints what its
// comments say: `console.log(x); // shown` or a `// shown` line right below, where `<anything>`
// stands for a value that changes from run to run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedOutput, jsExamples } from '../readme.mjs';
import { publicPackages } from '../workspace.mjs';

const examples = publicPackages().flatMap(({ name, dir }) =>
  jsExamples(readFileSync(join(dir, 'README.md'), 'utf8')).map((code, i) => ({ name, dir, index: i + 1, code })),
);

describe('README examples run', () => {
  it('every library package that has code has examples', () => {
    const withCode = publicPackages().filter(
      ({ dir, manifest }) => manifest.exports?.['.'] && readFileSync(join(dir, 'src', 'index.ts'), 'utf8').trim() !== 'export {};',
    );
    expect(withCode.map((p) => p.name).sort()).toEqual([
      '@pay/client',
      '@pay/journal',
      '@pay/sandbox',
      '@pay/schema',
      '@pay/sign',
      '@pay/webhook',
    ]);
    for (const { name } of withCode)
      expect(
        examples.some((e) => e.name === name),
        `${name} README has no js example`,
      ).toBe(true);
  });

  it.each(examples.map((e) => [`${e.name} example ${e.index}`, e]))('%s', (_label, { dir, index, code }) => {
    mkdirSync(join(dir, '.reports'), { recursive: true });
    const file = join(dir, '.reports', `readme-example-${index}.mjs`);
    writeFileSync(file, code);
    // A bound for a hang: an embedded PGlite starts slowly on a loaded machine.
    const out = execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 110_000 });
    const printed = out.trimEnd().split('\n');
    const promised = expectedOutput(code);
    expect(printed).toHaveLength(promised.length);
    promised.forEach((pattern, i) => {
      if (pattern) expect(printed[i]).toMatch(pattern);
    });
  });
});
