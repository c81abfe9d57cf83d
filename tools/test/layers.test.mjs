import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers } from '../check-layers.mjs';

let base;
function workspace(packages) {
  base = mkdtempSync(join(tmpdir(), 'layers-'));
  writeFileSync(join(base, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
  for (const [dir, { manifest, src = {} }] of Object.entries(packages)) {
    mkdirSync(join(base, 'packages', dir, 'src'), { recursive: true });
    writeFileSync(join(base, 'packages', dir, 'package.json'), JSON.stringify(manifest));
    for (const [file, text] of Object.entries(src)) writeFileSync(join(base, 'packages', dir, 'src', file), text);
  }
  return base;
}
afterEach(() => base && rmSync(base, { recursive: true, force: true }));

describe('checkLayers', () => {
  it('passes the real workspace', () => {
    expect(checkLayers()).toEqual([]);
  });

  it('passes downward dependencies and upward devDependencies', () => {
    const dir = workspace({
      sign: { manifest: { name: '@pay/sign', devDependencies: { '@pay/webhook': 'workspace:*' } } },
      webhook: {
        manifest: { name: '@pay/webhook', dependencies: { '@pay/sign': 'workspace:*' } },
        src: { 'index.ts': "import { signRequest } from '@pay/sign';\n" },
      },
    });
    expect(checkLayers(dir)).toEqual([]);
  });

  it('flags an upward dependency in package.json', () => {
    const dir = workspace({
      sign: { manifest: { name: '@pay/sign', dependencies: { '@pay/webhook': 'workspace:*' } } },
      webhook: { manifest: { name: '@pay/webhook' } },
    });
    expect(checkLayers(dir)).toEqual(['@pay/sign: dependencies names @pay/webhook, which is not below it']);
  });

  it('flags a sideways peer dependency', () => {
    const dir = workspace({
      client: { manifest: { name: '@pay/client', peerDependencies: { '@pay/webhook': '*' } } },
      webhook: { manifest: { name: '@pay/webhook' } },
    });
    expect(checkLayers(dir)).toEqual(['@pay/client: peerDependencies names @pay/webhook, which is not below it']);
  });

  it('flags an upward import in source even when package.json is silent', () => {
    const dir = workspace({
      schema: {
        manifest: { name: '@pay/schema' },
        src: { 'a.ts': "export * from '@pay/client';\n", 'b.ts': "const m = await import('@pay/sign');\n" },
      },
    });
    expect(checkLayers(dir)).toEqual([
      '@pay/schema: packages/schema/src/a.ts imports @pay/client, which is not below it',
      '@pay/schema: packages/schema/src/b.ts imports @pay/sign, which is not below it',
    ]);
  });

  it('flags files of a package that import each other, a type-only import included', () => {
    const dir = workspace({
      client: {
        manifest: { name: '@pay/client' },
        src: {
          'call.ts': "import { watch } from './observe.js';\nexport interface Call {}\n",
          'observe.ts': "import type { Call } from './call.js';\nexport const watch = (c: Call) => c;\n",
          'types.ts': 'export interface Shared {}\n',
          'uses.ts': "import type { Shared } from './types.js';\n",
        },
      },
    });
    expect(checkLayers(dir)).toEqual(['@pay/client: import circle between packages/client/src/call.ts, packages/client/src/observe.ts']);
  });

  it('passes the same files once the type has a file of its own', () => {
    const dir = workspace({
      client: {
        manifest: { name: '@pay/client' },
        src: {
          'call-types.ts': 'export interface Call {}\n',
          'call.ts': "import { watch } from './observe.js';\nexport type { Call } from './call-types.js';\n",
          'observe.ts': "import type { Call } from './call-types.js';\nexport const watch = (c: Call) => c;\n",
        },
      },
    });
    expect(checkLayers(dir)).toEqual([]);
  });

  it('flags a function of more than 120 lines, a closure counted with what it holds, and passes one of 120', () => {
    // `lines` lines from `function` to the closing brace.
    const fn = (name, lines) => `export function ${name}() {\n${'  void 0;\n'.repeat(lines - 2)}}\n`;
    const closure = `export function holds() {\n  const inner = () => {\n${'    void 0;\n'.repeat(117)}  };\n  return inner;\n}\n`;
    const dir = workspace({
      journal: {
        manifest: { name: '@pay/journal' },
        src: { 'long.ts': `// a header\n${fn('justRight', 120)}${fn('tooLong', 121)}`, 'closure.ts': closure },
      },
    });
    expect(checkLayers(dir)).toEqual([
      '@pay/journal: packages/journal/src/closure.ts:1: a function of 122 lines, more than 120 (split it): export function holds() {',
      '@pay/journal: packages/journal/src/long.ts:122: a function of 121 lines, more than 120 (split it): export function tooLong() {',
    ]);
  });

  it('flags a package that is not placed in a layer', () => {
    const dir = workspace({ x: { manifest: { name: '@pay/unknown' } } });
    expect(checkLayers(dir)).toEqual(['@pay/unknown: not placed in a layer; add it to tools/layers.mjs']);
  });
});
