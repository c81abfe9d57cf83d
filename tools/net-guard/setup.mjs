// The net guard as a vitest setup file (`setupFiles: ['@pay/test-net-guard/setup']` in every
// suite's vitest.config.ts). It installs the guard in the test process and, through NODE_OPTIONS,
// in every Node process a test starts with the test's environment; after each test (and after the
// file's last), any lookup refused in either since fails the test, naming the names.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { installNetGuard, takeViolations } from './index.mjs';

// One report file per test file: its Node children append what they were refused.
const report = join(tmpdir(), `pay-net-guard-${process.pid}-${randomUUID()}.jsonl`);
writeFileSync(report, '');
installNetGuard();
process.env['PAY_NET_GUARD_REPORT'] = report;
const preload = `--import=${new URL('./child.mjs', import.meta.url).href}`;
const options = process.env['NODE_OPTIONS'] ?? '';
if (!options.includes(preload)) process.env['NODE_OPTIONS'] = `${options} ${preload}`.trim();

/** The lookups refused here and in children since the last check, as `how(name)` lines. */
function refused() {
  const found = takeViolations().map((v) => `${v.how}(${JSON.stringify(v.name)})`);
  let lines = '';
  try {
    lines = readFileSync(report, 'utf8');
    writeFileSync(report, '');
  } catch {
    // the report was removed: nothing more to read
  }
  for (const line of lines.split('\n')) {
    if (line === '') continue;
    const v = JSON.parse(line);
    found.push(`${v.how}(${JSON.stringify(v.name)}) in child process ${v.pid}`);
  }
  return found;
}

function check(when) {
  const found = refused();
  if (found.length === 0) return;
  throw new Error(
    `net guard: ${when} resolved a name beyond loopback (a DNS query would have left this machine): ${found.join(', ')}. ` +
      'Point its webhooks and requests at 127.0.0.1 or at a name under .invalid.',
  );
}

afterEach(() => check('this test'));
afterAll(() => {
  try {
    check('this file (after its last test)');
  } finally {
    rmSync(report, { force: true });
  }
});
