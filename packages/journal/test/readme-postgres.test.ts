// The README's PostgreSQL example, run as written against a throwaway cluster (DATABASE_URL) and
// the built package. It is fenced `javascript`, so the repository's README test (which has no
// PostgreSQL) leaves it to this one; it must print what its comments say.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseFor, postgresAvailable } from '@pay/test-support/postgres';
import { runCluster } from './helpers/backends.js';

describe.skipIf(!postgresAvailable)("the README's PostgreSQL example", () => {
  // A database of its own on the run's cluster: the example creates its tables in it.
  let url: string;
  beforeAll(async () => {
    url = await databaseFor(runCluster(), 'journal_readme');
  });

  it('runs against a real PostgreSQL and prints what its comments say', () => {
    const pkg = join(import.meta.dirname, '..');
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
    const code = readme.match(/<!-- postgres-example[^\n]*-->\n```javascript\n([\s\S]*?)^```$/m)?.[1];
    expect(code).toBeDefined();
    mkdirSync(join(pkg, '.reports'), { recursive: true });
    const file = join(pkg, '.reports', 'readme-postgres-example.mjs');
    writeFileSync(file, code!);
    const out = execFileSync(process.execPath, [file], {
      cwd: pkg,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, DATABASE_URL: url },
    });
    // Each console.log promises its line in a trailing comment.
    const promised = code!
      .split('\n')
      .flatMap((line) => (line.includes('console.log(') ? [line.match(/\)[;,]?\s*\/\/ (.+)$/)?.[1]] : []))
      .filter((text): text is string => text !== undefined);
    expect(promised).toHaveLength(2);
    expect(out.trimEnd().split('\n')).toEqual(promised);
  });
});

// A pg Pool with no 'error' listener crashes its process when the server ends an idle connection
// (a restart, a failover): every example in the repository's READMEs that opens one listens.
it("every README example that opens a pg Pool handles the pool's 'error' event", () => {
  const root = join(import.meta.dirname, '..', '..', '..');
  const readmes = [
    join(root, 'README.md'),
    ...['packages', 'examples'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(root, dir, name, 'README.md'))),
  ].filter((file) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  });
  let pools = 0;
  for (const file of readmes) {
    for (const [, block] of readFileSync(file, 'utf8').matchAll(/^```(?:js|javascript|ts|typescript)\n([\s\S]*?)^```$/gm)) {
      const opened = [...block!.matchAll(/const (\w+) = new (?:pg\.)?Pool\(/g)].map((m) => m[1]);
      for (const name of opened) {
        pools++;
        expect(block, `${file}: ${name}`).toContain(`${name}.on('error'`);
      }
    }
  }
  expect(pools).toBeGreaterThan(0); // the journal's PostgreSQL example at least
});
