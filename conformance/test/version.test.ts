// The versions reports show: the reference adapter names the @pay/sign and @pay/client really
// installed beside it (one version for the two, which are released as one group), and a build of
// this repository, 0.0.0 until a first release, reads as unreleased rather than "0.0.0 + 0.0.0".
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { PLAIN, formatHuman } from '../src/report/human.js';
import type { RunResult } from '../src/types.js';
import { shownVersion, shownVersions } from '../src/version.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

describe('versions in reports', () => {
  it('a released version as it is; 0.0.0 as an unreleased build', () => {
    expect(shownVersion('1.4.0')).toBe('1.4.0');
    expect(shownVersion('0.0.1')).toBe('0.0.1');
    expect(shownVersion('0.0.0')).toBe('unreleased 0.0.0');
    const sign = { name: '@pay/sign', version: '1.4.0' };
    expect(shownVersions([sign, { name: '@pay/client', version: '1.4.0' }])).toBe('1.4.0');
    expect(shownVersions([sign, { name: '@pay/client', version: '1.3.0' }])).toBe('@pay/sign 1.4.0, @pay/client 1.3.0');
    expect(shownVersions([sign, { name: '@pay/client', version: '0.0.0' }])).toBe('@pay/sign 1.4.0, @pay/client unreleased 0.0.0');
  });

  it("the reference adapter's hello gives the versions installed beside it", async () => {
    // Read here from the installed packages' own files, as the adapter resolves them.
    const from = createRequire(join(import.meta.dirname, '..', 'src', 'harness', 'adapter.ts'));
    const version = (name: string) =>
      (JSON.parse(readFileSync(from.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
    const [sign, client] = [version('@pay/sign'), version('@pay/client')];
    const child = spawn(process.execPath, [CLI, 'adapter'], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      child.stdin.write('{"cmd":"hello","protocol":1}\n');
      const hello = JSON.parse((await lines.next()).value as string) as { name: string; version: string };
      expect(hello.name).toBe('@pay/sign + @pay/client');
      if (sign === client) expect(hello.version).toBe(sign === '0.0.0' ? 'unreleased 0.0.0' : sign);
      else expect(hello.version).toBe(`@pay/sign ${sign}, @pay/client ${client}`);
      expect(hello.version).not.toContain(' + ');
    } finally {
      child.stdin.end('{"cmd":"bye"}\n');
      child.kill();
    }
  });

  it("the human report's first line: the vectors' version as given, an HTTP mode's (the runner's) as shown", () => {
    const base: RunResult = {
      suite: 'pay-signature-vectors',
      suite_version: '0.0.0',
      protocol: 1,
      vectors_dir: '',
      implementation: { command: 'x', hello: { protocol: 1, name: 'impl', version: '2.0.0', language: 'Go', capabilities: [] } },
      started_at: new Date(0).toISOString(),
      duration_ms: 1,
      restarts: 0,
      categories: [],
      cases: [],
    };
    expect(formatHuman(base, PLAIN).split('\n')[0]).toBe('pay-signature-vectors 0.0.0 against impl 2.0.0 (Go)');
    const server = {
      ...base,
      mode: 'server',
      suite: 'pay-conformance server',
      implementation: { command: 'http://127.0.0.1:4010', hello: null },
    } as const;
    expect(formatHuman(server, PLAIN).split('\n')[0]).toBe('pay-conformance server unreleased 0.0.0 against http://127.0.0.1:4010');
    expect(formatHuman({ ...server, suite_version: '1.2.0' }, PLAIN).split('\n')[0]).toBe(
      'pay-conformance server 1.2.0 against http://127.0.0.1:4010',
    );
  });
});
