// The CLI end to end, as a user runs it: `run` with every report format and exit code, the default
// run of every mode, and `adapter` as a protocol child. The tests go side by side: the default
// run is mostly client mode's waits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_COMMANDS, COMMANDS } from '../src/types.js';
import { broken, fixtureVectors, python, repoDir, runCli, runCommand, tmp, type JsonReport } from './helpers.js';

const dir = tmp();

/** A small well-formedness check: every tag closed in order, attributes quoted, entities known. */
function parseXml(xml: string): { name: string; attrs: Record<string, string>; children: unknown[] } {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  type Node = { name: string; attrs: Record<string, string>; children: Node[]; text: string };
  const root: Node = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: Node[] = [root];
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < body.length && (m = tag.exec(body))) {
    pos = tag.lastIndex;
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(m[5])) throw new Error(`bad entity in text: ${m[5]}`);
      stack.at(-1)!.text += m[5];
      continue;
    }
    const [, close, name, attrText, self] = m;
    if (close) {
      const open = stack.pop()!;
      if (open.name !== name) throw new Error(`</${name}> closes <${open.name}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const [, k, v] of attrText!.matchAll(/([\w.-]+)="([^"]*)"/g)) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(v!)) throw new Error(`bad entity in attribute: ${v}`);
      attrs[k!] = v!;
    }
    const node: Node = { name: name!, attrs, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    if (!self) stack.push(node);
  }
  if (pos !== body.length) throw new Error(`unparsed XML at ${pos}: ${body.slice(pos, pos + 40)}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (root.children.length !== 1) throw new Error('not exactly one root element');
  return root.children[0]!;
}

describe.concurrent('pay-conformance run', () => {
  it('passes the reference adapter on the shipped suite and writes JSON, JUnit and TAP reports', async () => {
    const json = join(dir, 'ref.json');
    const junit = join(dir, 'ref.xml');
    const run = await runCli(['run', '--json', json, '--junit', junit, '--tap']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    expect(report.suite).toBe('pay-signature-vectors');
    expect(report.suite_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.implementation).toMatchObject({
      name: '@pay/sign + @pay/client',
      capabilities: expect.arrayContaining(['sign_request', 'verify_webhook']),
    });
    expect(report.summary.failed).toBe(0);
    expect(report.cases.length).toBe(report.summary.total);
    expect(report.cases.every((c) => c.status === 'pass' && c.expected !== undefined && c.got !== undefined)).toBe(true);
    // Acceptable verdicts are listed with the verdict chosen.
    expect(report.cases.some((c) => c.chosen_verdict)).toBe(true);
    // No secret anywhere in the report.
    expect(readFileSync(json, 'utf8')).not.toMatch(/"secret"\s*:/);

    const xml = parseXml(readFileSync(junit, 'utf8')) as {
      name: string;
      attrs: Record<string, string>;
      children: { name: string; children: { name: string }[] }[];
    };
    expect(xml.name).toBe('testsuites');
    expect(Number(xml.attrs['tests'])).toBe(report.summary.total);
    expect(xml.attrs['failures']).toBe('0');
    expect(xml.children.map((s) => s.name).every((n) => n === 'testsuite')).toBe(true);
    expect(xml.children.flatMap((s) => s.children).length).toBe(report.summary.total);

    const tap = run.stdout.split('\n');
    expect(tap[0]).toBe('TAP version 13');
    expect(tap[1]).toBe(`1..${report.summary.total}`);
    expect(tap.filter((l) => /^ok \d+ - /.test(l))).toHaveLength(report.summary.total);
    // The human report goes to stderr when TAP owns stdout.
    expect(run.stderr).toMatch(/PASS/);
  });

  it('reports failures, skips and errors in all three formats', async () => {
    const json = join(dir, 'bad.json');
    const junit = join(dir, 'bad.xml');
    const run = await runCli([
      'run',
      '--vectors',
      fixtureVectors,
      '--impl',
      broken(
        '--mistake url_trailing_slash_dropped --caps sign_request,verify_webhook,verify_request --fault crash --on verify_webhook/valid',
      ),
      '--json',
      json,
      '--junit',
      junit,
      '--tap',
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    const statuses = new Set(report.cases.map((c) => c.status));
    expect([...statuses].sort()).toEqual(['crash', 'fail', 'pass', 'skip']);
    const failed = report.cases.find((c) => c.mistake === 'url_trailing_slash_dropped')!;
    expect(failed.expected).toMatchObject({ headers: { 'x-signature': expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(failed.got).toMatchObject({ headers: { 'x-signature': expect.any(String) } });

    const xmlText = readFileSync(junit, 'utf8');
    const xml = parseXml(xmlText) as { attrs: Record<string, string> };
    expect(Number(xml.attrs['failures'])).toBe(report.cases.filter((c) => c.status === 'fail').length);
    expect(Number(xml.attrs['errors'])).toBe(1);
    expect(Number(xml.attrs['skipped'])).toBe(report.summary.skipped);
    expect(xmlText).toContain('<failure type="url_trailing_slash_dropped"');
    expect(xmlText).toContain('<system-err>broken-adapter: crashing on verify_webhook/valid');

    const tap = run.stdout.split('\n');
    expect(tap[1]).toBe(`1..${report.summary.total}`);
    expect(tap.filter((l) => /^not ok \d+ - /.test(l))).toHaveLength(report.summary.failed);
    expect(tap.filter((l) => /^ok \d+ - .* # SKIP /.test(l))).toHaveLength(report.summary.skipped);
    expect(run.stdout).toMatch(/^ {2}---\n {2}status: crash\n/m);
  });

  it('prints a human report with one line per category and the failures diagnosed, without colour off a terminal', async () => {
    const run = await runCli(['run', '--vectors', fixtureVectors, '--impl', broken('--mistake url_trailing_slash_dropped')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^✗ sign_request_get +\d+ passed, \d+ failed, 0 skipped$/m);
    expect(run.stdout).toMatch(/^✓ sign_simplified +2 passed, 0 failed, 0 skipped$/m);
    expect(run.stdout).toContain('you signed the URL without its trailing slash (mistake "url_trailing_slash_dropped")');
    expect(run.stdout).not.toContain('\x1b[');
    expect(run.stderr).toBe('');
  });

  it('passes the Python adapter (standard library only) on the whole suite', async () => {
    const run = await runCli(['run', '--impl', python]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('pay-python-example');
    expect(run.stdout).toMatch(/PASS \d+ passed, 0 failed, 0 skipped/);
  });

  it('exits 2 when the harness itself cannot run', async () => {
    const missing = await runCli(['run', '--impl', '/nonexistent/impl --x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot start/);
    expect((await runCli(['run', '--vectors', join(dir, 'nowhere')])).code).toBe(2);
    expect((await runCli(['run', '--no-such-option'])).code).toBe(2);
    expect((await runCli(['run', '--category', 'no_such_category'])).code).toBe(2);
    // A filter that matches nothing is a typo in every mode: exit 2, nothing run.
    for (const mode of ['run', 'client']) {
      const typo = await runCli([mode, '--id', 'typo'], { timeoutMs: 60_000 });
      expect(typo.code, `${mode}: ${typo.stdout}${typo.stderr}`).toBe(2);
      expect(typo.stderr).toMatch(/no (vector|client case) id matches "typo"/);
      expect(typo.stdout).toBe('');
    }
    expect((await runCli(['run', '--impl', 'node "unterminated'])).code).toBe(2);
    expect((await runCli(['frobnicate'])).code).toBe(2);
  });

  it('runs the suite, the embedded webhook receiver, the embedded sandbox and client mode with no arguments', async () => {
    const run = await runCli([], { timeoutMs: 170_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/PASS \d+ passed, 0 failed, 0 skipped/);
    expect(run.stdout).toMatch(
      /^pay-conformance webhook-endpoint (?:unreleased )?\S+ against http:\/\/127\.0\.0\.1:\d+\/webhooks\/pay \(embedded receiver on @pay\/webhook\)$/m,
    );
    expect(run.stdout).toMatch(/^✓ webhook_refuses +\d+ passed, 0 failed/m);
    expect(run.stdout).toMatch(
      /^pay-conformance server (?:unreleased )?\S+ against http:\/\/127\.0\.0\.1:\d+ \(embedded @pay\/sandbox\)$/m,
    );
    expect(run.stdout).toMatch(/^✓ server_refuses +\d+ passed, 0 failed/m);
    expect(run.stdout).toMatch(
      /^pay-conformance client (?:unreleased )?\S+ against @pay\/sign \+ @pay\/client (?:unreleased )?\d+\.\d+\.\d+ \(/m,
    );
    expect(run.stdout).toMatch(/^✓ client_exactly_once +\d+ passed, 0 failed/m);
    expect(run.stdout.match(/^PASS \d+ passed, 0 failed, 0 skipped/gm)).toHaveLength(4);
  }, 180_000);
});

describe.concurrent('pay-conformance adapter', () => {
  const lines = [
    { cmd: 'hello', protocol: 1 },
    { cmd: 'sign_simplified', case: 'c1', merchant_id: 'm_1', secret: 'sk', timestamp: '1732200000', payin_id: 'pi_1' },
    { cmd: 'no_such_command', case: 'c2' },
    {
      cmd: 'verify_webhook',
      case: 'c3',
      merchant_id: 'm_1',
      secret: 'sk',
      url: 'not a url',
      method: 'POST',
      headers: {},
      body_b64: '',
      now: '1',
    },
    // A client command whose fields are missing fails that command, with the field named.
    { cmd: 'client_get_payin', case: 'c4', base_url: 'http://127.0.0.1:1' },
    { cmd: 'bye' },
  ];
  const input = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

  const check = (stdout: string) => {
    const out = stdout.split('\n').filter((l) => l !== '');
    expect(out).toHaveLength(lines.length);
    const parsed = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ protocol: 1, capabilities: [...COMMANDS, ...CLIENT_COMMANDS] });
    expect(parsed[1]).toMatchObject({ case: 'c1', headers: { 'x-simplified-signature': expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(parsed[2]).toEqual({ case: 'c2', error: 'unsupported' });
    expect(parsed[3]).toMatchObject({ case: 'c3', error: expect.any(String) });
    expect(parsed[4]).toEqual({ case: 'c4', error: '"card_proxy_url" must be a string' });
    expect(parsed[5]).toEqual({});
  };

  it('speaks the protocol and exits after bye', async () => {
    const run = await runCli(['adapter'], { input });
    check(run.stdout);
    expect(run.code).toBe(0);
  });

  it('`pnpm -s conformance adapter` from the repository root prints nothing but protocol lines', async () => {
    const run = await runCommand('pnpm', ['-s', 'conformance', 'adapter'], { cwd: repoDir, input, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    check(run.stdout);
  }, 60_000);
});
