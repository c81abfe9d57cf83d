// The web-standard core on the runtimes it claims besides Node: Deno.serve and Bun.serve hand
// the Fetch webhookHandler their own Request objects, over real HTTP on loopback.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = join(import.meta.dirname, '..');
const script = join(import.meta.dirname, 'fixtures', 'serve-runtime.mjs');
const runtimes: [string, string[]][] = [
  ['deno', ['run', '-A', script]],
  ['bun', [script]],
];

describe.each(runtimes)('%s', (name, args) => {
  it('verifies, deduplicates and refuses webhooks through the Fetch webhookHandler', () => {
    const out = execFileSync(join(pkg, 'node_modules', '.bin', name), args, { cwd: pkg, encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({
      runtime: name,
      valid: [200, { ok: true }],
      duplicate: [200, { ok: true, duplicate: true }],
      tampered: [401, { error: 'bad_signature' }],
      notJson: [400, { error: 'invalid_json' }],
      seen: ['pi_rt'],
    });
  });
});
