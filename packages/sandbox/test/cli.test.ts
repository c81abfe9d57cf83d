// The command line, spawned as a user runs it: what it prints, one log line per request and per
// webhook attempt without secrets or card data, and a clean stop on SIGINT and SIGTERM. Options
// refused before anything starts run in this process (as the CLI's process runs them); one of them
// is spawned too, and must exit and print the same.
import { describe, expect, it } from 'vitest';
import { CARD, M1, M2, payinBody, post, push, receiver } from './helpers.js';
import { field, run, runInProcess, runToEnd } from './process.js';

describe('pay-sandbox', () => {
  it('prints its URLs and merchants, logs requests and webhook attempts without secrets or card data, stops on SIGTERM', async () => {
    const hooks = await receiver();
    const sandbox = run(['--port', '0', '--merchant', `${M1.id}:${M1.secret}`], {
      PAY_SANDBOX_MERCHANTS: `${M2.id}:${M2.secret}:${hooks.url('/static')}`,
    });
    try {
      const banner = await sandbox.waitFor('Press Ctrl-C');
      const url = field(banner, 'base URL');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(field(banner, 'card proxy URL')).toBe(`${url}/card-proxy`);
      expect(field(banner, 'dashboard')).toBe(`${url}/_sandbox/`);
      expect(banner).toContain(`merchant        ${M1.id}`);
      expect(banner).toContain(`merchant        ${M2.id}, static webhook ${hooks.url('/static')}`);

      const created = await post(`${url}/v2/merchants/payins/`, payinBody({ method: 'card', reference_id: 'cli-1' }), M2);
      expect(created.status).toBe(200);
      await push(created.body.next_action.url, created.body.id, { ...CARD, pan: '4000000000000002', csc: '987' }, M2);
      await hooks.next();
      await hooks.next();
      // Each attempt is logged when its answer is in; the two answers may come in either order.
      await sandbox.waitFor(/webhook \S+ new attempt 1 -> \S+ 200/);
      const log = await sandbox.waitFor(/webhook \S+ failed attempt 1 -> \S+ 200/);
      expect(log).toMatch(/POST \/v2\/merchants\/payins\/ 200 \d+ms/);
      expect(log).toMatch(/POST \/card-proxy\/v1\/push\/<token>\/ 200 \d+ms/);
      expect(log).toMatch(/webhook \S+ new attempt 1 -> http:\/\/127\.0\.0\.1:\d+\/static 200/);
      for (const secret of [M1.secret, M2.secret, '4000000000000002', created.body.next_action.url.split('/push/')[1]]) {
        expect(log).not.toContain(secret);
      }
      // Every log line has one of two shapes, made of a time, a method, a path, a status, a
      // duration, ids and addresses: no room for a body, a header or a card's security code.
      const lines = log
        .split('\n')
        .slice(log.split('\n').indexOf('Press Ctrl-C to stop.') + 1)
        .filter(Boolean);
      expect(lines.length).toBeGreaterThanOrEqual(4);
      for (const line of lines) {
        expect(line).toMatch(
          /^\S+Z (?:(?:GET|POST) \/(?:v2\/merchants\/payins\/|card-proxy\/v1\/push\/<token>\/) \d{3} \d+ms|webhook pi_[0-9a-z]{20} (?:new|failed) attempt 1 -> http:\/\/127\.0\.0\.1:\d+\/static 200)$/,
        );
      }

      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exited).toBe(0);
      expect(sandbox.output()).toContain('pay-sandbox: stopped');
    } finally {
      sandbox.child.kill('SIGKILL');
      await hooks.close();
    }
  });

  it('starts a demo merchant when given none, prints its credentials, and stops on SIGINT', async () => {
    const sandbox = run(['--port', '0', '--quiet'], { PAY_SANDBOX_MERCHANTS: '' });
    try {
      const banner = await sandbox.waitFor('Press Ctrl-C');
      expect(banner).toContain('merchant        m_demo (demo), secret sk_sandbox_demo');
      const url = field(banner, 'base URL');
      const created = await post(`${url}/v2/merchants/payins/`, payinBody(), { id: 'm_demo', secret: 'sk_sandbox_demo' });
      expect(created.status).toBe(200);
      sandbox.child.kill('SIGINT');
      expect(await sandbox.exited).toBe(0);
      expect(sandbox.output()).not.toMatch(/POST \/v2/); // --quiet
    } finally {
      sandbox.child.kill('SIGKILL');
    }
  });

  it.each([
    [['--port', 'eighty']],
    [['--port', '70000']],
    [['--merchant', 'no-secret']],
    [['--merchant', 'm_1:']],
    [['--merchant', 'm_1:sk:ftp://hooks.example']],
    [['--merchant', 'm_1:sk_a', '--merchant', 'm_1:sk_b']],
    [['--unknown']],
  ])('refuses %j with exit code 2 and one line naming the --help to read, never echoing a secret', async (args) => {
    const done = await runInProcess(args);
    const output = `${done.stdout}${done.stderr}`;
    expect(done.code).toBe(2);
    expect(output).toMatch(/^pay-sandbox: [^\n]+ \(see pay-sandbox --help\)\n$/);
    expect(output).not.toContain('sk_a');
    expect(output).not.toContain('sk_b');
  });

  it('refuses an option the same way in its process: the same exit code (2) and output', async () => {
    const line = ['--merchant', 'm_1:sk_a', '--merchant', 'm_1:sk_b'];
    const spawned = await runToEnd(line);
    expect(spawned.code).toBe(2);
    expect(await runInProcess(line)).toEqual(spawned);
  });

  it('prints the usage on --help', async () => {
    const sandbox = run(['--help']);
    expect(await sandbox.exited).toBe(0);
    expect(sandbox.output()).toContain('--merchant SPEC');
  });
});
