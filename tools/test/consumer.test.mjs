// The packages as someone using this repository gets them before a release: packed by
// `pnpm tarballs` (tools/tarballs.mjs), installed with plain npm into an empty project by the very
// lines the READMEs' "Use it from your project" sections give, and used from there: README
// examples, strict TypeScript, ESM and CommonJS (require(esm), Node 20.19+), the conformance
// CLI's bin. The project sits next to the tarballs' folder as the READMEs assume:
// <tmp>/pay-toolkit/tarballs/ and <tmp>/my-app/.
//
// The test runs tools/tarballs.mjs, the packing half of `pnpm tarballs`; its other half, the
// build, is the build this test depends on.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installSet, tarballFile } from '../pack.mjs';
import { expectedOutput, importedPackages, installLines, jsExamples, section, setupLines } from '../readme.mjs';
import { publicPackages, root } from '../workspace.mjs';
import { EXAMPLES_FROM_TARBALLS } from './examples-from-tarballs.mjs';

const base = mkdtempSync(join(tmpdir(), 'pay-consumer-'));
const tarballs = join(base, 'pay-toolkit', 'tarballs');
const dir = join(base, 'my-app'); // an app, as the root README installs it
const runner = join(base, 'runner'); // the conformance runner's own directory, as its README says
const tester = join(base, 'tester'); // a project's tests on @pay/testing, as its README installs it
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const readme = (path) => readFileSync(join(root, path, 'README.md'), 'utf8');
// npm's chatter off; the README lines themselves run unchanged.
// npm installs the packages' third-party dependencies from the npm registry: the one lookup beyond
// loopback this test's children make, declared to the net guard (docs/security.md lists it).
const npmRegistry = new URL(
  execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim() || 'https://registry.npmjs.org/',
).hostname;
const env = {
  ...process.env,
  NO_COLOR: '1',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_loglevel: 'error',
  PAY_NET_GUARD_ALLOW: npmRegistry,
};
const failed = (cmd, args, error) => new Error(`${cmd} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
const run = (cmd, args, cwd = dir, timeout = 120_000) => {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', timeout, env });
  } catch (error) {
    throw failed(cmd, args, error);
  }
};
/** A README's shell line, as written, in `cwd`; without blocking, so two projects install at once. */
const shell = (line, cwd) =>
  promisify(execFile)('sh', ['-c', line], { cwd, encoding: 'utf8', timeout: 180_000, env }).catch((error) => {
    throw failed('sh -c', [line], error);
  });

/** A TypeScript consumer of every package, type-checked (strict, skipLibCheck false) in the app. */
const CONSUMER_TS = `import { signRequest, verifyRequest, readHeader, type VerifyResult } from '@pay/sign';
import { validate, CreatePayinRequest, WebhookPayload, type ValidationResult } from '@pay/schema';
import { createTestWebhook, verifyWebhook, type WebhookEvent } from '@pay/webhook';
import * as onFetch from '@pay/webhook/fetch';
import * as onNode from '@pay/webhook/node';
import * as onExpress from '@pay/webhook/express';
import * as onFastify from '@pay/webhook/fastify';
import { createClient, OutcomeUnknownError, type CreateResult, type CreatedPayin, type Payin } from '@pay/client';
import { startSandbox } from '@pay/sandbox';
const config = { merchantId: 'm_1', secret: 'sk_1', url: 'https://shop.example/hooks' };
const pay = createClient({ baseUrl: 'https://api.pay.example', merchantId: 'm_1', secret: 'sk_1' });
async function againstTheSandbox(): Promise<string> {
  const sandbox = await startSandbox({ merchants: [{ id: 'm_1', secret: 'sk_1' }] });
  const local = createClient({ baseUrl: sandbox.url, merchantId: 'm_1', secret: 'sk_1' });
  const found = await local.payins.getByReference('order-1');
  await sandbox.close();
  return found.data.id;
}
async function createIt(body: CreatePayinRequest): Promise<string> {
  try {
    const result: CreateResult<CreatedPayin, Payin> = await pay.payins.create(body);
    if (!result.reconciled) return result.data.next_action.url + result.data.created_at.toISOString();
    return result.data.status;
  } catch (error) {
    if (error instanceof OutcomeUnknownError) return error.referenceId + error.decidableAt.toISOString();
    throw error;
  }
}
const headers = signRequest({ ...config, method: 'POST', body: '{}' });
const verdict: VerifyResult = verifyRequest({ ...config, method: 'POST', headers, body: '{}' });
const fromFetch: string | undefined = readHeader(new Headers(headers), 'x-signature');
const init: RequestInit = { method: 'POST', headers, body: '{}' };
const checked: ValidationResult<CreatePayinRequest> = validate(CreatePayinRequest, {});
if (checked.ok) checked.value.customer.address.country.toUpperCase();
const hook = createTestWebhook({ ...config, payload: { id: 'pi_1', status: 'new' } });
const result = verifyWebhook({ ...config, headers: hook.headers, body: hook.body });
if (result.ok) { const e: WebhookEvent = result.event; e.status.toUpperCase(); }
const payload: WebhookPayload = { id: 'pi_1', status: 'whatever-new-status', reference_id: 'r' };
const handlers = [onFetch.webhookHandler, onNode.webhookHandler, onExpress.webhookHandler, onFastify.webhookHandler];
export { verdict, fromFetch, init, payload, handlers, createIt, againstTheSandbox };
`;

/**
 * Type-checks consumer.ts in the app with `moduleResolution` (nodenext or bundler), as its own
 * tsc program: settles with nothing, or the error with the compiler's messages; never rejects.
 * One thread: on a busy 2-core machine the checker's threads cost CPU and gain nothing.
 */
async function typeCheck(resolution) {
  const config = `tsconfig-${resolution}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
        moduleResolution: resolution,
        skipLibCheck: false,
      },
      files: ['consumer.ts'],
    }),
  );
  const args = ['-p', config, '--singleThreaded'];
  return promisify(execFile)(tsc, args, { cwd: dir, encoding: 'utf8', timeout: 180_000, env }).then(
    () => ({}),
    (error) => ({ error: failed('tsc', args, error) }),
  );
}
/**
 * Both type checks, one after the other, started as soon as the app is installed: a tsc program
 * here is seconds of CPU (every declaration file is checked), and the tests of the app run
 * meanwhile; each check's test reads its result.
 * @type {Map<string, Promise<{ error?: Error }>>}
 */
const typeChecks = new Map();
/**
 * Runs a README example of EXAMPLES_FROM_TARBALLS, as written, in its project: settles with its
 * code and what it printed, or the error with its output; never rejects.
 */
function runExample({ name, path, index, project }) {
  const code = jsExamples(readme(path))[index - 1];
  const cwd = project === 'tester' ? tester : dir;
  const file = `${name.replace('@pay/', '')}-example-${index}.mjs`;
  writeFileSync(join(cwd, file), code);
  return promisify(execFile)(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 120_000, env }).then(
    ({ stdout }) => ({ code, out: stdout }),
    (error) => ({ code, error: failed('node', [file], error) }),
  );
}
/**
 * Those examples by package, started as soon as their projects are installed: @pay/testing's
 * outage (seconds of CPU, tens of seconds on a loaded machine) runs while the app's other tests
 * do; each example's test reads its result.
 * @type {Map<string, Promise<{ code: string, out?: string, error?: Error }>>}
 */
const exampleRuns = new Map();
/**
 * The conformance runner through its installed bin, in its own project: started as soon as the
 * project is installed, so that the tests of the app run while its client mode waits out its
 * SDK's time limits (about 17 s of little CPU). Settles with its output or the error, never rejects.
 * @type {Promise<{ out?: string, error?: Error }> | undefined}
 */
let conformanceRun;
// Three projects' node_modules: on a loaded machine, deleting them can take longer than a default
// hook. The runner, the examples and the type checks are let finish first: a run filtered to other
// tests still starts them.
afterAll(async () => {
  await conformanceRun;
  await Promise.all([...typeChecks.values(), ...exampleRuns.values()]);
  await rm(base, { recursive: true, force: true });
}, 240_000);

describe('every README says which tarballs to install', () => {
  const pnpm = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  it.each(publicPackages().map((p) => [p.name, p]))('%s', (_name, { name, dir: pkgDir }) => {
    const text = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    // The clone's command, as the root README gives it, with the pnpm the repository pins.
    expect(text).toContain(`npx -y ${pnpm} install --frozen-lockfile && npx -y ${pnpm} tarballs`);
    const files = installLines(text).flatMap((line) => line.split(/\s+/).filter((word) => word.endsWith('.tgz')));
    for (const file of files) expect(file).toMatch(/^\.\.\/pay-toolkit\/tarballs\/[^/]+\.tgz$/);
    // The package itself and every @pay package its examples import, each with what it depends on.
    const needed = installSet([name, ...importedPackages(text)]).map(tarballFile);
    expect(files.map((f) => f.split('/').pop()).sort()).toEqual(needed.sort());
  });
});

describe('the root README sets the project up for its examples', () => {
  it('it makes the project an ES module (the examples use import and top-level await)', () => {
    expect(setupLines(readme('.'))).toEqual(['npm pkg set type=module']);
    expect(section(readme('.'), 'Use it from your project')).toContain('"type": "module"');
  });
});

describe('a project that follows the READMEs', () => {
  let packedOutput = '';
  beforeAll(async () => {
    // One `pnpm pack` of every public package: about 2 s on an idle machine, far more on a loaded
    // one. The bound is for a hang.
    packedOutput = run(process.execPath, [join(root, 'tools', 'tarballs.mjs'), tarballs], base, 480_000);
    mkdirSync(dir);
    mkdirSync(runner);
    mkdirSync(tester);
    // Empty projects; the app is ready for TypeScript (@types/node is all it has). It is not an
    // ES module until the README's own line makes it one.
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-app', private: true, devDependencies: { '@types/node': '^20' } }));
    writeFileSync(join(runner, 'package.json'), JSON.stringify({ name: 'runner', private: true }));
    writeFileSync(join(tester, 'package.json'), JSON.stringify({ name: 'tester', private: true }));
    const follow = async (path, cwd) => {
      for (const line of [...setupLines(readme(path)), ...installLines(readme(path))]) await shell(line, cwd);
    };
    await Promise.all([follow('.', dir), follow('conformance', runner), follow('packages/testing', tester)]);
    const args = ['--no-install', 'pay-conformance'];
    conformanceRun = promisify(execFile)('npx', args, { cwd: runner, encoding: 'utf8', timeout: 120_000, env }).then(
      ({ stdout }) => ({ out: stdout }),
      (error) => ({ error: failed('npx', args, error) }),
    );
    for (const example of EXAMPLES_FROM_TARBALLS) exampleRuns.set(example.name, runExample(example));
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER_TS);
    const nodenext = typeCheck('nodenext');
    typeChecks.set('nodenext', nodenext);
    typeChecks.set(
      'bundler',
      nodenext.then(() => typeCheck('bundler')),
    );
  }, 900_000);

  it('the command packed every public package and printed the lines that install them all, the development tools with --save-dev', () => {
    const names = publicPackages().map((p) => p.name);
    for (const name of names) expect(existsSync(join(tarballs, tarballFile(name))), name).toBe(true);
    const all = packedOutput
      .split('or all of them:')[1]
      .split('\n')
      .filter((line) => line.trim().startsWith('npm install'));
    expect(all).toHaveLength(2);
    expect(all[1].trim().startsWith('npm install --save-dev ')).toBe(true);
    const files = all.flatMap((line) =>
      line
        .trim()
        .split(/\s+/)
        .slice(2)
        .filter((word) => word !== '--save-dev'),
    );
    expect(files.sort()).toEqual(names.map((n) => join(tarballs, tarballFile(n))).sort());
    // The sandbox's own line, as its README writes it.
    const sandbox = packedOutput.split('\n').find((line) => line.trim().startsWith('@pay/sandbox ') && line.includes('npm install'));
    expect(sandbox).toMatch(/ npm install --save-dev \S*pay-sandbox\.tgz /);
  });

  // These examples run here alone, not in readme-examples.test.mjs (examples-from-tarballs.mjs).
  it.each(EXAMPLES_FROM_TARBALLS.map((e) => [e.name, e]))("runs %s's README example as written, from its project", async (name) => {
    const { code, out, error } = await exampleRuns.get(name);
    if (error) throw error;
    const printed = out.trimEnd().split('\n');
    const promised = expectedOutput(code);
    expect(printed).toHaveLength(promised.length);
    promised.forEach((pattern, i) => {
      if (pattern) expect(printed[i]).toMatch(pattern);
    });
  });

  it('works from ESM: every package and subpath', () => {
    // Without the optional peer @opentelemetry/api (installed only by the last test).
    expect(existsSync(join(dir, 'node_modules', '@opentelemetry', 'api'))).toBe(false);
    writeFileSync(
      join(dir, 'esm.mjs'),
      `import { signRequest, verifyRequest } from '@pay/sign';
import { validate, WebhookPayload } from '@pay/schema';
import openapi from '@pay/schema/openapi.json' with { type: 'json' };
import { verifyWebhook, createTestWebhook } from '@pay/webhook';
import * as onFetch from '@pay/webhook/fetch';
import * as onNode from '@pay/webhook/node';
import * as onExpress from '@pay/webhook/express';
import * as onFastify from '@pay/webhook/fastify';
import { createClient, NotFoundError } from '@pay/client';
const config = { merchantId: 'm_1', secret: 'sk_1', url: 'https://shop.example/hooks' };
const hook = createTestWebhook({ ...config, payload: { id: 'pi_1', status: 'new' } });
const at = '2026-05-01T12:30:45.123456';
const record = { id: 'pi_1', reference_id: 'r', status: 'executed', payment: { amount: 1, currency: 'EUR' }, fee: null,
  created_at: at, updated_at: at, expires_at: at, error_code: null, error_message: null };
const json = { headers: { 'content-type': 'application/json' } };
const answers = [new Response(JSON.stringify(record), json), new Response('{}', { ...json, status: 404 })];
const pay = createClient({ baseUrl: 'https://api.pay.example', merchantId: 'm_1', secret: 'sk_1', fetch: async () => answers.shift() });
const found = await pay.payins.get('pi_1');
const missing = await pay.payouts.getByReference('r').catch((e) => e instanceof NotFoundError);
console.log(JSON.stringify({
  client: [found.data.created_at instanceof Date, missing],
  sign: verifyRequest({ ...config, method: 'POST', headers: signRequest({ ...config, method: 'POST', body: '{}' }), body: '{}' }).ok,
  schema: validate(WebhookPayload, { id: 'pi_1', status: 'new' }).ok,
  openapi: openapi.openapi,
  webhook: verifyWebhook({ ...config, headers: hook.headers, body: hook.body }).ok,
  adapters: [onFetch, onNode, onExpress, onFastify].map((adapter) => typeof adapter.webhookHandler),
}));
`,
    );
    expect(JSON.parse(run(process.execPath, ['esm.mjs']))).toEqual({
      sign: true,
      schema: true,
      openapi: '3.1.0',
      webhook: true,
      adapters: ['function', 'function', 'function', 'function'],
      client: [true, true],
    });
  });

  it.each(['nodenext', 'bundler'])('type-checks a TypeScript consumer (moduleResolution %s)', async (resolution) => {
    const { error } = await typeChecks.get(resolution);
    if (error) throw error;
  });

  it('works from CommonJS through require(esm)', () => {
    writeFileSync(
      join(dir, 'cjs.cjs'),
      `const { signSimplified } = require('@pay/sign');
const { verifyWebhook } = require('@pay/webhook');
const { createClient } = require('@pay/client');
console.log(signSimplified({ merchantId: 'm', secret: 's', timestamp: 1, payinId: 'p' })['x-simplified-signature'], typeof verifyWebhook, typeof createClient);
`,
    );
    // HMAC-SHA256("s", "m1p"), computed with Python's hmac module.
    expect(run(process.execPath, ['cjs.cjs']).trim()).toBe(
      '182cbbaa278731717d9bd83b55019b99d55dc208baf30580e7e9dfafd3ea77ad function function',
    );
  });

  it('runs the conformance suite through the installed bin', async () => {
    const { out, error } = await conformanceRun;
    if (error) throw error;
    // One summary per mode run (the vectors, the embedded receiver, and more as modes are added).
    const summaries = out.match(/^(PASS|FAIL) \d+ passed, \d+ failed, \d+ skipped/gm) ?? [];
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    expect(summaries.every((s) => /^PASS \d+ passed, 0 failed, 0 skipped/.test(s))).toBe(true);
  });

  it('records OpenTelemetry spans once @opentelemetry/api is installed, from CommonJS through require(esm)', async () => {
    // The type checks and the examples read the app's node_modules, which this install changes:
    // they end first.
    await Promise.all([...typeChecks.values(), ...exampleRuns.values()]);
    run('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '@opentelemetry/api@1.9.1',
      '@opentelemetry/sdk-trace-base@2.12.1',
    ]);
    writeFileSync(
      join(dir, 'otel.cjs'),
      `const { trace } = require('@opentelemetry/api');
const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { createClient } = require('@pay/client');
const { createTestWebhook } = require('@pay/webhook');
const { webhookHandler } = require('@pay/webhook/fetch');
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
const at = '2026-05-01T12:30:45.123456';
const record = { id: 'pi_1', reference_id: 'r', status: 'executed', payment: { amount: 1, currency: 'EUR' }, fee: null,
  created_at: at, updated_at: at, expires_at: at, error_code: null, error_message: null };
const answer = async () => new Response(JSON.stringify(record), { headers: { 'content-type': 'application/json' } });
const config = { merchantId: 'm_1', secret: 'sk_1', url: 'https://shop.example/hooks' };
(async () => {
  await createClient({ baseUrl: 'https://api.pay.example', merchantId: 'm_1', secret: 'sk_1', fetch: answer }).payins.get('pi_1');
  const hook = createTestWebhook({ ...config, payload: { id: 'pi_1', status: 'executed' } });
  await webhookHandler({ ...config, handler: () => {} })(hook.request);
  console.log(JSON.stringify(spans.getFinishedSpans().map((s) => [s.instrumentationScope.name, s.name])));
})();
`,
    );
    expect(JSON.parse(run(process.execPath, ['otel.cjs']))).toEqual([
      ['@pay/client', 'GET /v2/merchants/payins/{id}'], // the request, ended first
      ['@pay/client', 'GET /v2/merchants/payins/{id}'], // the call
      ['@pay/webhook', 'POST /hooks'],
    ]);
  });
});
