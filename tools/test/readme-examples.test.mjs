// Every ```js block in a published package's README runs, as written, against the built package
// (imports of the package's own name resolve through its exports map), and prints what its
// comments say: `console.log(x); // shown` or a `// shown` line right below, where `<anything>`
// stands for a value that changes from run to run. The few that consumer.test.mjs runs from the
// installed tarballs (examples-from-tarballs.mjs) run there instead, with the same checks. And every example (js, and the javascript and
// ts blocks whose package tests run them) type-checks, as written, as a TypeScript module under
// the settings `tsc --init` writes today (strict, exactOptionalPropertyTypes,
// noUncheckedIndexedAccess...), with the types the packages ship and with both the oldest and the
// newest Node types: the READMEs promise that the examples run as written from TypeScript. The
// packages' declaration files are checked under the same settings without skipLibCheck, as a
// project with those settings that does not skip them checks them.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedOutput, jsExamples, typedExamples } from '../readme.mjs';
import { publicPackages, root } from '../workspace.mjs';
import { EXAMPLES_FROM_TARBALLS, runFromTarballs } from './examples-from-tarballs.mjs';

const examples = publicPackages().flatMap(({ name, dir }) =>
  jsExamples(readFileSync(join(dir, 'README.md'), 'utf8')).map((code, i) => ({ name, dir, index: i + 1, code })),
);

/** Runs an example's file with this Node in `cwd`; resolves with what it printed, rejects with its output when it fails. */
async function runExample(file, cwd) {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 110_000 });
    return stdout;
  } catch (error) {
    throw new Error(`${relative(root, file)} failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
}

/** How many jobs given to twoAtATime run now, and the ones waiting for a place, first first. */
let running = 0;
const waiting = [];

/** Runs `job` once fewer than two jobs given here are running; resolves or rejects as it does. */
async function twoAtATime(job) {
  if (running < 2) running += 1;
  else await new Promise((resolve) => waiting.push(resolve)); // a job that ends hands its place over
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

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

  it('the examples run from the tarballs instead are examples of these READMEs', () => {
    for (const { name, index } of EXAMPLES_FROM_TARBALLS)
      expect(
        examples.some((e) => e.name === name && e.index === index),
        `${name} example ${index}`,
      ).toBe(true);
  });

  // Two at a time: an example mostly waits (servers, an embedded PGlite starting), and each is a
  // process of its own, with its own file and ports.
  it.concurrent.for(examples.filter((e) => !runFromTarballs(e.name, e.index)).map((e) => [`${e.name} example ${e.index}`, e]))(
    '%s',
    async ([, { dir, index, code }], { expect }) => {
      mkdirSync(join(dir, '.reports'), { recursive: true });
      const file = join(dir, '.reports', `readme-example-${index}.mjs`);
      writeFileSync(file, code);
      // A bound for a hang: an embedded PGlite starts slowly on a loaded machine.
      const out = await twoAtATime(() => runExample(file, dir));
      const printed = out.trimEnd().split('\n');
      const promised = expectedOutput(code);
      expect(printed).toHaveLength(promised.length);
      promised.forEach((pattern, i) => {
        if (pattern) expect(printed[i]).toMatch(pattern);
      });
    },
  );
});

const tsc = join(root, 'node_modules', '.bin', 'tsc');

/**
 * The settings of a TypeScript project as the repository's TypeScript starts one today: what
 * `tsc --init` writes, as tsc itself reads it back (`--showConfig`), checking only, with Node's
 * types (`types: ["node"]`, as that file's comment says for Node; the library stays the default,
 * which has the DOM's `fetch` types, where `response.json()` is `any`). TypeScript 7 writes
 * `strict`, `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `verbatimModuleSyntax` and
 * more; the first three are kept even if a later version stops writing them.
 */
function initSettings() {
  const dir = mkdtempSync(join(tmpdir(), 'tsc-init-'));
  try {
    execFileSync(tsc, ['--init'], { cwd: dir, encoding: 'utf8' });
    writeFileSync(join(dir, 'index.ts'), 'export {};\n');
    const shown = JSON.parse(execFileSync(tsc, ['--showConfig', '-p', dir], { cwd: dir, encoding: 'utf8' }));
    const { declaration, declarationMap, sourceMap, jsx, ...checking } = shown.compilerOptions;
    return { ...checking, strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Today's settings, read once (two tsc runs): the examples and the declaration files are checked under them. */
const todaysSettings = initSettings();

/**
 * The two sets of Node's types a user may have: the oldest the packages support (their engines
 * say Node >=20.19: the 20.x line, the root's `@types/node`) and the newest on npm (tools'
 * `@types/node-latest`, an alias kept at the newest version). Node's types change shapes between
 * majors (the newest types `events.on` as an iterator whose `value` may be undefined): an example
 * must type-check under both.
 */
const nodeTypes = [
  { label: 'oldest @types/node (20.x)', id: 'node-20', dir: realpathSync(join(root, 'node_modules', '@types', 'node')) },
  { label: 'newest @types/node', id: 'node-latest', dir: realpathSync(join(root, 'tools', 'node_modules', '@types', 'node-latest')) },
].map((types) => ({ ...types, version: JSON.parse(readFileSync(join(types.dir, 'package.json'), 'utf8')).version }));

/**
 * Type-checks `files` (absolute paths; `where(file, line)` says where an error's line is in the
 * README) as one tsc program with `compilerOptions` and Node's types from `types.dir`, found
 * through typeRoots so that every `/// <reference types="node" />` of a dependency finds the same
 * ones. Resolves with the type errors, each as `<where>:col: error TS…`, and the files tsc loaded.
 */
async function check(name, files, compilerOptions, types, where) {
  const project = join(root, 'tools', '.reports', 'readme-types', `${name}-${types.id}`);
  rmSync(project, { recursive: true, force: true });
  mkdirSync(join(project, 'types'), { recursive: true });
  symlinkSync(types.dir, join(project, 'types', 'node'), 'dir');
  const options = { ...compilerOptions, noEmit: true, types: ['node'], typeRoots: [join(project, 'types')] };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files }, null, 2));
  let out;
  try {
    // One thread: the checker's threads cost CPU (about a fifth more, measured) and gain nothing
    // on a 2-core machine whose cores the other suites already keep busy.
    ({ stdout: out } = await promisify(execFile)(tsc, ['-p', project, '--listFiles', '--singleThreaded'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 110_000,
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    out = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    if (!/ error TS\d+/.test(out)) throw new Error(`tsc failed without a type error:\n${out}`);
  }
  const lines = out.split('\n');
  const loaded = lines.filter((line) => line.startsWith('/')).map((line) => line.trim());
  const errors = lines
    .filter((line) => / error TS\d+/.test(line))
    .map((text) => text.replace(/^(.*?)\((\d+),(\d+)\)/, (_, file, line, col) => `${where(resolve(root, file), Number(line))}:${col}`));
  return { errors, loaded };
}

/**
 * The type checks, one tsc program at a time, each started when the file is collected: they run
 * while the examples above do (which mostly wait), and each describe's beforeAll awaits its own.
 */
let checks = Promise.resolve();
/** Queues `job` after the checks before it; its promise is marked handled here (a beforeAll awaits it later). */
function inTurn(job) {
  const done = checks.then(job);
  checks = done.catch(() => {});
  return done;
}
// A run filtered to other tests still starts the checks: they end before the file does.
afterAll(() => checks, 300_000);

/** Node's type files among `loaded`, by the directory of the package each comes from. */
const nodeTypeDirs = (loaded) => [
  ...new Set(loaded.map((file) => file.match(/^(.*\/@types\/node)\//)?.[1]).filter((dir) => dir !== undefined)),
];

/**
 * The journal README's adapter of your own `pg` client to the `query` that `enqueue` takes, given
 * inline in its prose: checked as a function from a `pg` client to the journal's `Query`.
 */
function journalAdapter(dir) {
  const markdown = readFileSync(join(dir, 'README.md'), 'utf8');
  const found = [...markdown.matchAll(/`(\(text, params\) => client\.query\([^`]+)`/g)];
  return found.map((m) => ({
    line: markdown.slice(0, m.index).split('\n').length,
    code: `import type { PoolClient } from 'pg';\nimport type { Query } from '@pay/journal';\nexport const adapt = (client: PoolClient): Query =>\n  ${m[1]};\n`,
    at: 4, // the file's line that holds the README's
  }));
}

describe("README examples type-check under the settings of today's tsc --init, with the oldest and the newest @types/node", () => {
  const settings = todaysSettings;
  const byPackage = publicPackages()
    .map(({ name, dir }) => ({ name, dir, blocks: typedExamples(readFileSync(join(dir, 'README.md'), 'utf8')) }))
    .filter((p) => p.blocks.length > 0);
  const journal = byPackage.find((p) => p.name === '@pay/journal');
  const inline = journalAdapter(journal.dir);

  it('covers every package with examples, and every js example', () => {
    expect(byPackage.map((p) => p.name)).toEqual([...new Set(examples.map((e) => e.name))]);
    for (const { name, blocks } of byPackage)
      expect(blocks.filter((b) => b.lang === 'js')).toHaveLength(examples.filter((e) => e.name === name).length);
    expect(inline, "the journal README's inline pg adapter").toHaveLength(1);
  });

  it("checks what tsc --init writes today: strict, exact optional properties, checked index access, verbatim module syntax, Node's module rules", () => {
    expect(settings).toMatchObject({
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      module: 'nodenext',
      skipLibCheck: true,
    });
  });

  it("checks against Node 20's types, the oldest the engines allow, and against newer ones", () => {
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
    expect(engines).toBe('>=20.19');
    expect(nodeTypes[0].version).toMatch(/^20\.(19|[2-9]\d)\./);
    expect(Number(nodeTypes[1].version.split('.')[0])).toBeGreaterThan(20);
    const pinned = JSON.parse(readFileSync(join(root, 'tools', 'package.json'), 'utf8')).devDependencies['@types/node-latest'];
    expect(pinned).toBe(`npm:@types/node@${nodeTypes[1].version}`);
  });

  // Every block `typedExamples` gives, as a TypeScript module in its package's
  // .reports/readme-types/, where imports of the package's own name resolve as a user's would;
  // one tsc program for every package (Node's types load once).
  const files = new Map();
  for (const { dir, blocks } of byPackage) {
    const at = join(dir, '.reports', 'readme-types');
    rmSync(at, { recursive: true, force: true });
    mkdirSync(at, { recursive: true });
    for (const { line, code } of blocks) files.set(join(at, `line-${line}.mts`), { dir, line, at: 1, code });
  }
  for (const { line, code, at } of inline)
    files.set(join(journal.dir, '.reports', 'readme-types', `inline-${line}.mts`), { dir: journal.dir, line, at, code });
  const where = (file, line) => {
    const block = files.get(file);
    if (block === undefined) return `${relative(root, file)}:${line}`;
    return `${relative(root, join(block.dir, 'README.md'))}:${block.line + line - block.at}`;
  };

  for (const types of nodeTypes) {
    describe(`${types.label}, ${types.version}`, () => {
      const checked = inTurn(() => {
        for (const [file, { code }] of files) writeFileSync(file, code);
        return check('examples', [...files.keys()], settings, types, where);
      });
      let result;
      beforeAll(async () => {
        result = await checked;
      }, 300_000);
      it("loads Node's types from that package alone", () => expect(nodeTypeDirs(result.loaded)).toEqual([types.dir]));
      for (const { name, dir, blocks } of byPackage)
        it(`${name}: ${blocks.length} examples${name === '@pay/journal' ? ' and the inline pg adapter' : ''}, no error`, () =>
          expect(result.errors.filter((e) => e.startsWith(`${relative(root, dir)}/`))).toEqual([]));
      it('no error anywhere else', () =>
        expect(result.errors.filter((e) => !byPackage.some(({ dir }) => e.startsWith(`${relative(root, dir)}/`)))).toEqual([]));
    });
  }

  it('no other Markdown file of the repository has a JavaScript or TypeScript example', () => {
    const readmes = new Set(publicPackages().map(({ dir }) => join(dir, 'README.md')));
    const others = markdownFiles(root).filter((file) => !readmes.has(file));
    expect(others.length).toBeGreaterThan(3); // the root README, docs/, vectors/, the shop...
    const withCode = others.filter((file) => /^```(js|javascript|ts|typescript|mjs|cjs|jsx|tsx)\b/m.test(readFileSync(file, 'utf8')));
    expect(withCode.map((file) => relative(root, file))).toEqual([]);
  });
});

/**
 * Every entry point a package's exports map gives types for, as a specifier (`@pay/webhook/node`),
 * with the types a caller builds and passes in that its declaration file exports: those named
 * `…Options`, `…Config`, `…Init` or `…Input`, and the few others below.
 */
const INPUT_TYPE = /(Options|Config|Init|Input)$/;
const OTHER_INPUTS = new Set(['Hooks', 'Merchant', 'RequestContext', 'SandboxFetcher']);
const entryPoints = publicPackages().flatMap(({ name, dir, manifest }) =>
  Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === 'object' && target !== null && 'types' in target)
    .map(([subpath, target]) => ({
      name,
      dir,
      specifier: subpath === '.' ? name : `${name}/${subpath.slice(2)}`,
      inputs: exportedTypes(readFileSync(join(dir, target.types), 'utf8')).filter((t) => INPUT_TYPE.test(t) || OTHER_INPUTS.has(t)),
    })),
);

/** The names a declaration file exports (`export interface X`, `export type X`, `export type { X, Y } from`). */
function exportedTypes(declarations) {
  const names = new Set();
  for (const m of declarations.matchAll(/^export (?:declare )?(?:interface|type) (\w+)/gm)) names.add(m[1]);
  for (const m of declarations.matchAll(/^export (?:type )?\{([^}]*)\}/gm))
    for (const part of m[1].split(',')) {
      const exported = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (exported) names.add(exported);
    }
  return [...names].sort();
}

// The optional properties of T whose type refuses an explicit undefined: under
// exactOptionalPropertyTypes, `{ publicUrl: undefined }` is not a `{ publicUrl?: string }`.
const REFUSING = `type RefusingUndefined<T> = T extends unknown
  ? { [K in keyof T]-?: {} extends Pick<T, K> ? ({ [P in K]: undefined } extends Pick<T, K> ? never : K) : never }[keyof T]
  : never;
type NoneOf<Keys extends never> = Keys;`;

describe('the declaration files every entry point loads type-check in a project with those settings and skipLibCheck false', () => {
  const settings = { ...todaysSettings, skipLibCheck: false };

  it('covers every package with code, and the options they take', () => {
    const names = new Set(entryPoints.map((e) => e.name));
    for (const name of new Set(examples.map((e) => e.name))) expect(names.has(name), name).toBe(true);
    expect(entryPoints.map((e) => e.specifier)).toContain('@pay/webhook/node');
    const inputs = entryPoints.flatMap((e) => e.inputs.map((t) => `${e.specifier} ${t}`));
    for (const known of [
      '@pay/sandbox StartSandboxOptions',
      '@pay/client ClientOptions',
      '@pay/journal JournalOptions',
      '@pay/client Hooks',
    ])
      expect(inputs).toContain(known);
  });

  for (const types of nodeTypes) {
    describe(`${types.label}, ${types.version}`, () => {
      const checked = inTurn(() => {
        // One module per entry point, in its package (imports of its own name resolve as a user's
        // do): it loads the entry point, and says of each type a caller passes in that every
        // optional property takes undefined, so a caller under exactOptionalPropertyTypes can pass
        // on a value that may be undefined (the packages take undefined as not given).
        const files = entryPoints.map(({ dir, specifier, inputs }) => {
          const at = join(dir, '.reports', 'public-types');
          mkdirSync(at, { recursive: true });
          const file = join(at, `${specifier.replace(/[@/]/g, '-').replace(/^-/, '')}.mts`);
          const lines = [`import * as entry from '${specifier}';`, 'export { entry };'];
          if (inputs.length > 0) {
            lines.push(`import type { ${inputs.join(', ')} } from '${specifier}';`, REFUSING);
            for (const input of inputs) lines.push(`export type ${input}TakesUndefined = NoneOf<RefusingUndefined<${input}>>;`);
          }
          writeFileSync(file, `${lines.join('\n')}\n`);
          return file;
        });
        return check('declarations', files, settings, types, (file, line) => `${relative(root, file)}:${line}`);
      });
      let result;
      beforeAll(async () => {
        result = await checked;
      }, 300_000);
      it("loads Node's types from that package alone", () => expect(nodeTypeDirs(result.loaded)).toEqual([types.dir]));
      it('loads every package', () => {
        for (const { dir } of entryPoints)
          expect(
            result.loaded.some((file) => file.startsWith(join(dir, 'dist'))),
            dir,
          ).toBe(true);
      });
      it('no error: every declaration file holds, every optional property of an option type takes undefined', () =>
        expect(result.errors).toEqual([]));
    });
  }
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
