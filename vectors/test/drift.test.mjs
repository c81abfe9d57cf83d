// The committed category files must be exactly what generate.mjs writes: a hand edit, or a
// generator change without regenerating, fails here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, fileName, vectorsDir } from './suite.mjs';

const HOW_TO_FIX = 'run `pnpm --filter @pay/vectors generate` and commit the result';

describe('generated files match the committed ones', () => {
  let outDir;
  beforeAll(() => {
    outDir = mkdtempSync(join(tmpdir(), 'pay-vectors-'));
    execFileSync(process.execPath, [join(vectorsDir, 'generate.mjs'), outDir], { stdio: 'pipe' });
  });
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('writes exactly the seven category files', () => {
    expect(readdirSync(outDir).sort()).toEqual(Object.keys(CATEGORIES).map(fileName).sort());
  });

  for (const category of Object.keys(CATEGORIES)) {
    it(`${fileName(category)} is byte-identical to the generator's output`, () => {
      const committed = readFileSync(join(vectorsDir, fileName(category)));
      const generated = readFileSync(join(outDir, fileName(category)));
      expect(committed.equals(generated), `${fileName(category)} drifted from generate.mjs: ${HOW_TO_FIX}`).toBe(true);
    });
  }

  it('is deterministic: a second run writes the same bytes', () => {
    const again = mkdtempSync(join(tmpdir(), 'pay-vectors-'));
    try {
      execFileSync(process.execPath, [join(vectorsDir, 'generate.mjs'), again], { stdio: 'pipe' });
      for (const category of Object.keys(CATEGORIES)) {
        const a = readFileSync(join(outDir, fileName(category)));
        const b = readFileSync(join(again, fileName(category)));
        expect(a.equals(b), fileName(category)).toBe(true);
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });
});
