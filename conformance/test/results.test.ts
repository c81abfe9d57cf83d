// results/ is the repository's own conformance table (the reference adapter and the Python example
// SDK in client mode), written by scripts/results.mjs and never by hand. This test runs the script
// again into a directory of its own and requires the committed copy to be the same, file for file
// and byte for byte: a change that moves a verdict, the table's layout or a badge fails here until
// `pnpm conformance-results` is run and its output committed.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pkgDir, tmp } from './helpers.js';

const committed = join(pkgDir, 'results');

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe('results/', () => {
  it('is what scripts/results.mjs writes today (run `pnpm conformance-results` and commit it when this fails)', async () => {
    const out = join(tmp(), 'results');
    const run = await promisify(execFile)(process.execPath, [join(pkgDir, 'scripts', 'results.mjs'), '--out', out], {
      cwd: pkgDir,
      timeout: 170_000,
    });
    for (const name of ['reference-client', 'python-client', 'reference-run', 'python-run']) {
      expect(run.stderr).toMatch(new RegExp(`${name}: every case passed`));
    }
    expect(filesUnder(out)).toEqual(['README.md', 'badges/pay-python-example.svg', 'badges/pay-sign-pay-client.svg', 'index.html']);
    expect(filesUnder(committed)).toEqual(filesUnder(out));
    for (const file of filesUnder(out)) {
      expect(readFileSync(join(committed, file), 'utf8'), `results/${file} is out of date`).toBe(readFileSync(join(out, file), 'utf8'));
    }
    // Nothing in it that changes from run to run, or from machine to machine.
    const all = filesUnder(out)
      .map((f) => readFileSync(join(out, f), 'utf8'))
      .join('\n');
    expect(all).not.toMatch(
      /127\.0\.0\.1|localhost|\/tmp\/|pay-conformance-results-|\d{4}-\d\d-\d\dT|\b\d+ ms\b|Python 3|Node\.js|0\.0\.0/,
    );
  }, 180_000);
});
