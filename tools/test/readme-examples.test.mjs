// Every ```js block in a published package's README runs, as written, against the built package
// (imports of the package's own name resolve through its exports map), and prints what its
// comments say: `console.log(x); // shown` or a `// shown` line right below, where `<anything>`
// stands for a value that changes from run to run. And it type-checks, as written, as a
// TypeScript module under `tsc --strict` with the types the packages ship: the READMEs promise
// that the examples run as written from TypeScript (strict).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedOutput, jsExamples } from '../readme.mjs';
import { publicPackages, root } from '../workspace.mjs';

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

/**
 * The packages whose examples type-check under `tsc --strict` so far. The others' examples still
 * have errors (implicit any, unnarrowed unions, and some types that refuse a correct program);
 * each joins this list once its examples pass.
 */
const STRICT = ['@pay/client', '@pay/webhook'];

/** The strict type errors of a package's README examples, each as `example-N.mts(line,col): error TS…`. */
function typeErrors(dir, examples) {
  const at = join(dir, '.reports', 'readme-types');
  rmSync(at, { recursive: true, force: true });
  mkdirSync(at, { recursive: true });
  for (const { index, code } of examples) writeFileSync(join(at, `example-${index}.mts`), code);
  // How a strict TypeScript project of today would take them: Node's own module rules, the
  // types of Node 20 and of the packages (their .d.ts as published), no emit.
  const compilerOptions = { strict: true, noEmit: true, module: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true };
  writeFileSync(join(at, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.mts'] }));
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', at], { encoding: 'utf8', timeout: 110_000 });
    return [];
  } catch (error) {
    const out = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    const errors = out.split('\n').filter((line) => / error TS\d+/.test(line));
    if (errors.length === 0) throw new Error(`tsc failed without a type error:\n${out}`);
    return errors.map((line) => line.slice(line.indexOf('example-')));
  }
}

describe('README examples type-check under tsc --strict', () => {
  const byPackage = publicPackages()
    .map(({ name, dir }) => ({ name, dir, examples: examples.filter((e) => e.name === name) }))
    .filter((p) => p.examples.length > 0);

  it('every package named here has examples', () => {
    for (const name of STRICT) expect(byPackage.map((p) => p.name)).toContain(name);
  });

  for (const { name, dir, examples: own } of byPackage) {
    if (STRICT.includes(name)) it(`${name}: ${own.length} examples, no error`, () => expect(typeErrors(dir, own)).toEqual([]));
    else it.todo(`${name}: its examples do not all type-check yet`);
  }
});
