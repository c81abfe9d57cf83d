// Every ```js block in a published package's README runs, as written, against the built package
// (imports of the package's own name resolve through its exports map), and prints what its
// comments say: `console.log(x); // shown` or a `// shown` line right below, where `<anything>`
// stands for a value that changes from run to run. And every example (js, and the javascript and
// ts blocks whose package tests run them) type-checks, as written, as a TypeScript module under
// `tsc --strict` with the types the packages ship: the READMEs promise that the examples run as
// written from TypeScript (strict).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedOutput, jsExamples, typedExamples } from '../readme.mjs';
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
      '@pay/clock',
      '@pay/journal',
      '@pay/otel',
      '@pay/sandbox',
      '@pay/schema',
      '@pay/sign',
      '@pay/testing',
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
 * The strict type errors of the packages' README examples, per package directory, each as
 * `README.md:line:col: error TS…` (the README's own line): every block `typedExamples` gives, as a
 * TypeScript module in the package's .reports/readme-types/, where its imports of the package's
 * own name resolve as a user's would. One tsc program for every package: loading Node's types once
 * rather than once per package is most of the time saved.
 */
function typeErrors(packages) {
  const files = [];
  for (const { dir, blocks } of packages) {
    const at = join(dir, '.reports', 'readme-types');
    rmSync(at, { recursive: true, force: true });
    mkdirSync(at, { recursive: true });
    for (const { line, code } of blocks) {
      writeFileSync(join(at, `line-${line}.mts`), code);
      files.push(join(at, `line-${line}.mts`));
    }
  }
  // How a strict TypeScript project of today would take them: Node's own module rules, the
  // types of Node 20 and of the packages (their .d.ts as published), no emit.
  const compilerOptions = { strict: true, noEmit: true, module: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true };
  const project = join(root, 'tools', '.reports', 'readme-types');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  const found = new Map(packages.map(({ dir }) => [dir, []]));
  let out = '';
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project], { cwd: root, encoding: 'utf8', timeout: 110_000 });
    return found;
  } catch (error) {
    out = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
  const errors = out.split('\n').filter((line) => / error TS\d+/.test(line));
  if (errors.length === 0) throw new Error(`tsc failed without a type error:\n${out}`);
  for (const text of errors) {
    const dir = packages.map((p) => p.dir).find((d) => resolve(root, text.split('(')[0]).startsWith(join(d, '.reports')));
    const shown = text.replace(
      /^.*line-(\d+)\.mts\((\d+),(\d+)\)/,
      (_, start, line, col) => `README.md:${Number(start) + Number(line) - 1}:${col}`,
    );
    if (dir === undefined) throw new Error(`tsc reported an error outside the examples: ${text}`);
    found.get(dir).push(shown);
  }
  return found;
}

describe('README examples type-check under tsc --strict', () => {
  const byPackage = publicPackages()
    .map(({ name, dir }) => ({ name, dir, blocks: typedExamples(readFileSync(join(dir, 'README.md'), 'utf8')) }))
    .filter((p) => p.blocks.length > 0);

  it('covers every package with examples, and every js example', () => {
    expect(byPackage.map((p) => p.name)).toEqual([...new Set(examples.map((e) => e.name))]);
    for (const { name, blocks } of byPackage)
      expect(blocks.filter((b) => b.lang === 'js')).toHaveLength(examples.filter((e) => e.name === name).length);
  });

  let found;
  beforeAll(() => {
    found = typeErrors(byPackage);
  }, 120_000);
  for (const { name, dir, blocks } of byPackage)
    it(`${name}: ${blocks.length} examples, no error`, () => expect(found.get(dir)).toEqual([]));

  it('no other Markdown file of the repository has a JavaScript or TypeScript example', () => {
    const readmes = new Set(publicPackages().map(({ dir }) => join(dir, 'README.md')));
    const others = markdownFiles(root).filter((file) => !readmes.has(file));
    expect(others.length).toBeGreaterThan(3); // the root README, docs/, vectors/, the shop...
    const withCode = others.filter((file) => /^```(js|javascript|ts|typescript|mjs|cjs|jsx|tsx)\b/m.test(readFileSync(file, 'utf8')));
    expect(withCode.map((file) => relative(root, file))).toEqual([]);
  });
});

/** Every Markdown file of the repository (its own, not dependencies', builds' or changesets'). */
function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || ['node_modules', 'dist'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
