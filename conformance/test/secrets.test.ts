// Secrets never appear in what the runner prints or writes, even for a failing implementation
// whose every answer is reported with its expectation.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { broken, goldenVectors, runCli, tmp } from './helpers.js';

const secrets = new Set<string>();
for (const file of readdirSync(goldenVectors).filter((f) => /^(sign|verify)_.*\.json$/.test(f))) {
  for (const v of JSON.parse(readFileSync(join(goldenVectors, file), 'utf8')).vectors) secrets.add(v.input.secret);
}

describe('reports', () => {
  it('hold no secret of any vector, in any format', async () => {
    expect(secrets.size).toBeGreaterThan(3);
    const dir = tmp();
    const [json, junit] = [join(dir, 'r.json'), join(dir, 'r.xml')];
    const args = ['run', '--vectors', goldenVectors, '--impl', broken('--mistake secret_latin1'), '--json', json, '--junit', junit];
    const human = await runCli(args);
    const tap = await runCli([...args, '--tap']);
    expect(human.code).toBe(1);
    const outputs = {
      human: human.stdout + human.stderr,
      tap: tap.stdout + tap.stderr,
      json: readFileSync(json, 'utf8'),
      junit: readFileSync(junit, 'utf8'),
    };
    for (const [name, text] of Object.entries(outputs)) {
      expect(text.length, name).toBeGreaterThan(100);
      for (const secret of secrets) expect(text.includes(secret), `${name} shows a secret`).toBe(false);
    }
  });
});
