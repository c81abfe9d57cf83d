// The way in for the developer's own browser once the sandbox is reachable from elsewhere: the
// sign-in link the terminal prints, a one-time code in the URL's fragment that the sign-in page
// exchanges (POST) for the admin cookie. And the admin client and the command line against such a
// sandbox: they work when given the token, and say how to give it when not. The sandbox is a real
// process; the commands run in this process, as the CLI's process runs them, with the environment
// they are given (that the process prints the same is commands.test.ts's).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, SandboxAdminError, sandboxAdmin } from '../src/index.js';
import { M1, raw, start, type Started } from './helpers.js';
import { field, run, runInProcess } from './process.js';

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

const PUBLIC = 'https://sandbox.example.com';
const FORM = 'application/x-www-form-urlencoded';

/** The code of a sign-in link. */
const codeOf = (link: string) => /#code=([^&]+)$/.exec(link)![1]!;

/** Posts the sign-in form with `fields`, from the sandbox's own page. */
function postSignIn(sandbox: Started, fields: string) {
  return raw(sandbox.url, {
    method: 'POST',
    path: '/_sandbox/sign-in',
    headers: [
      ['content-type', FORM],
      ['origin', sandbox.url],
    ],
    body: fields,
  });
}

describe('a sandbox reachable from elsewhere (publicUrl)', () => {
  let sandbox: Started;

  it('gives a one-time sign-in link on its loopback address, the code in the fragment, not the token', async () => {
    sandbox = await start({ merchants: [M1], publicUrl: PUBLIC });
    closers.push(sandbox.close);
    expect(sandbox.signInUrl).toMatch(new RegExp(`^${sandbox.url}/_sandbox/sign-in#code=[0-9a-f]{32}$`));
    expect(sandbox.signInUrl).not.toContain(sandbox.adminToken);
  });

  it('the code opens the dashboard once: the admin cookie is set, and the link is spent', async () => {
    const code = codeOf(sandbox.signInUrl!);
    const first = await postSignIn(sandbox, `code=${code}`);
    expect(first.status).toBe(303);
    // Back to the dashboard on the origin the browser is on, whatever publicUrl says.
    expect(first.headers.location).toBe('/_sandbox/');
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`pay_sandbox_admin=${sandbox.adminToken}`);
    // The cookie is not Secure: the browser is on http://127.0.0.1 (its Origin), not on the https public URL.
    expect(String(first.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict$/);
    const page = await raw(sandbox.url, {
      method: 'GET',
      path: '/_sandbox/',
      headers: [
        ['accept', 'text/html'],
        ['cookie', cookie],
      ],
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Payments sandbox');

    const again = await postSignIn(sandbox, `code=${code}`);
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.text).toMatch(/used already/);
  });

  it('a wrong code, an empty one or the token given as a code opens nothing', async () => {
    for (const code of ['', '0'.repeat(32), sandbox.adminToken, 'x'.repeat(5000)]) {
      const answer = await postSignIn(sandbox, `code=${encodeURIComponent(code)}`);
      expect(answer.status, code.slice(0, 40)).toBe(403);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('the sign-in page and its script are open to anyone; the page quotes neither the token nor a code', async () => {
    const page = await raw(sandbox.url, { method: 'GET', path: '/_sandbox/sign-in', headers: [['accept', 'text/html']] });
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="token"');
    expect(page.text).toContain('src="/_sandbox/assets/sign-in.js"');
    expect(page.text).not.toContain(sandbox.adminToken);
    const script = await raw(sandbox.url, { method: 'GET', path: '/_sandbox/assets/sign-in.js', headers: [] });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    // The dashboard's own script is the admin area's: it needs the token.
    expect((await raw(sandbox.url, { method: 'GET', path: '/_sandbox/assets/dashboard.js', headers: [] })).status).toBe(403);
  });

  it('the log lines hold neither the token nor any code', async () => {
    expect(sandbox.lines.some((line) => line.includes('/_sandbox/sign-in'))).toBe(true);
    const all = sandbox.lines.join('\n');
    expect(all).not.toContain(sandbox.adminToken);
    expect(all).not.toContain(codeOf(sandbox.signInUrl!));
  });

  it('the admin client: refused without the token (403 forbidden, saying how to give it), working with it', async () => {
    const anonymous = sandboxAdmin(sandbox.url);
    const error = await anonymous.transactions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxAdminError);
    expect((error as SandboxAdminError).status).toBe(403);
    expect((error as SandboxAdminError).code).toBe('forbidden');
    expect((error as SandboxAdminError).message).toMatch(/reachable from elsewhere/);
    expect((error as SandboxAdminError).message).not.toContain(sandbox.adminToken);
    const admin = sandboxAdmin(sandbox.url, { adminToken: sandbox.adminToken });
    expect(await admin.transactions()).toEqual([]);
    expect((await admin.advance(60)).now).toMatch(/^\d{4}-/);
    // startSandbox's own client carries the token.
    expect(await sandbox.admin.faults()).toEqual([]);
  });
});

describe('the sign-in link is for a sandbox that needs it', () => {
  it('plain local: no link (the dashboard opens without a token)', async () => {
    const sandbox = await start({ merchants: [M1] });
    try {
      expect(sandbox.signInUrl).toBeUndefined();
    } finally {
      await sandbox.close();
    }
  });

  it('a Fetch host mints a fresh one-time link per call; the oldest unused are forgotten past 16', async () => {
    const core = createSandbox({ merchants: [M1], publicUrl: PUBLIC });
    try {
      const base = 'http://127.0.0.1:4010';
      const links = Array.from({ length: 17 }, () => core.signInLink(base));
      expect(new Set(links).size).toBe(17);
      const exchange = (link: string) =>
        core.fetch(
          new Request(`${base}/_sandbox/sign-in`, {
            method: 'POST',
            headers: { 'content-type': FORM, origin: base },
            body: `code=${codeOf(link)}`,
            redirect: 'manual',
          }),
          { remoteAddress: '127.0.0.1' },
        );
      expect((await exchange(links[0]!)).status).toBe(403); // the oldest, forgotten
      const opened = await exchange(links[16]!);
      expect(opened.status).toBe(303);
      expect(opened.headers.get('set-cookie')).toMatch(new RegExp(`^pay_sandbox_admin=${core.adminToken};`));
      expect((await exchange(links[16]!)).status).toBe(403);
      expect((await exchange(links[1]!)).status).toBe(303);
      expect(() => core.signInLink('not a url')).toThrow(TypeError);
    } finally {
      core.close();
    }
  });
});

describe('pay-sandbox --public-url', () => {
  it('prints the sign-in link; the commands need PAY_SANDBOX_ADMIN_TOKEN and work with it; no token or code in the log', async () => {
    const serve = run(['--port', '0', '--public-url', PUBLIC, '--merchant', `${M1.id}:${M1.secret}`], {
      PAY_SANDBOX_ADMIN_TOKEN: '',
    });
    closers.push(() => serve.child.kill('SIGKILL'));
    const banner = await serve.waitFor('Press Ctrl-C');
    const url = field(banner, 'base URL');
    const token = field(banner, 'admin token');
    const link = field(banner, 'sign-in link');
    expect(link).toMatch(new RegExp(`^${url}/_sandbox/sign-in#code=[0-9a-f]{32}$`));
    expect(link).not.toContain(token);

    const refused = await runInProcess(['transactions'], { PAY_SANDBOX_URL: url, PAY_SANDBOX_ADMIN_TOKEN: '' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/403 forbidden/);
    expect(refused.stderr).toMatch(/PAY_SANDBOX_ADMIN_TOKEN/);
    expect(refused.stderr + refused.stdout).not.toContain(token);

    const listed = await runInProcess(['transactions'], { PAY_SANDBOX_URL: url, PAY_SANDBOX_ADMIN_TOKEN: token });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const advanced = await runInProcess(['advance', '1h'], { PAY_SANDBOX_URL: url, PAY_SANDBOX_ADMIN_TOKEN: token });
    expect(advanced.code).toBe(0);
    expect(advanced.stdout + advanced.stderr).not.toContain(token);

    // The link, used as the page uses it.
    const signedIn = await raw(url, {
      method: 'POST',
      path: '/_sandbox/sign-in',
      headers: [
        ['content-type', FORM],
        ['origin', url],
      ],
      body: `code=${codeOf(link)}`,
    });
    expect(signedIn.status).toBe(303);
    await serve.waitFor(/POST \/_sandbox\/sign-in 303/);
    const log = serve.output().slice(serve.output().indexOf('Press Ctrl-C'));
    expect(log).toMatch(/POST \/_sandbox\/clock\/advance 200/);
    expect(log).not.toContain(token);
    expect(log).not.toContain(codeOf(link));
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });

  it('plain local: no sign-in link, the commands need no token', async () => {
    const serve = run(['--port', '0', '--merchant', `${M1.id}:${M1.secret}`]);
    closers.push(() => serve.child.kill('SIGKILL'));
    const banner = await serve.waitFor('Press Ctrl-C');
    expect(banner).not.toContain('sign-in link');
    const listed = await runInProcess(['transactions'], { PAY_SANDBOX_URL: field(banner, 'base URL'), PAY_SANDBOX_ADMIN_TOKEN: '' });
    expect(listed.code).toBe(0);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });
});
