#!/usr/bin/env node
// pay-conformance: argument parsing, the modes, reports and exit codes.
//   0  every required case passed
//   1  some case failed (or the implementation could not be run to the end)
//   2  the harness itself could not run (bad arguments, unreadable vectors, a command that cannot start)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { splitCommandLine } from './harness/child.js';
import { formatHuman, progressLine, styleFor } from './report/human.js';
import { toJsonReport } from './report/json.js';
import { toJunit } from './report/junit.js';
import { toTap } from './report/tap.js';
import { DEFAULT_MAX_RESTARTS, DEFAULT_TIMEOUT_MS, HarnessError, exitCodeOf, runSuite } from './harness/run.js';
import { runServer } from './http/server/run.js';
import { FAILED_STATUSES, type RunResult } from './types.js';
import { VectorError, defaultVectorsDir, loadSuite, selectCases } from './harness/vectors.js';
import { runWebhookEndpoint } from './http/webhook-endpoint/run.js';

const self = fileURLToPath(import.meta.url);
const pkg = JSON.parse(readFileSync(resolve(dirname(self), '..', 'package.json'), 'utf8')) as { name: string; version: string };
const RUNNER = { name: pkg.name, version: pkg.version };
const REFERENCE = '(bundled reference adapter)';

class UsageError extends Error {}

const USAGE = `Usage:
  pay-conformance                      every mode against the toolkit's own implementations: the suite
                                       against the bundled reference adapter, webhook-endpoint against
                                       an embedded receiver, server against an embedded @pay/sandbox
  pay-conformance run [options]        replay the golden vectors against an implementation
  pay-conformance server --base-url URL --card-proxy-url URL --merchant-id ID [--secret S] [options]
                                       test a service implementation over HTTP (the secret may instead
                                       be given as PAY_SECRET in the environment)
  pay-conformance webhook-endpoint --url URL --merchant-id ID [--secret S] [options]
                                       test a merchant's running webhook endpoint over HTTP (the secret
                                       may instead be given as PAY_WEBHOOK_SECRET in the environment)
  pay-conformance adapter              serve the bundled reference implementation on stdio (protocol child)

run options:
  --impl "<command line>"   the implementation under test (default: the bundled reference adapter)
  --vectors DIR             vector files to use (default: the ones shipped with the runner)
  --category NAME           only these categories (repeatable, comma-separated, * wildcard)
  --id ID                   only these vector ids (repeatable, comma-separated, * wildcard)
  --fail-fast               stop at the first failed case
  --strict                  count skipped cases (capabilities not implemented) as failures
  --max-restarts N          restarts of the child allowed over the whole run (default ${DEFAULT_MAX_RESTARTS}); once spent,
                            the remaining cases are reported as not run

server options:
  --webhook-url URL         the webhook_url given in the creates (default: an address that never resolves)

options of every mode:
  --json FILE               write a JSON report
  --junit FILE              write a JUnit XML report
  --tap                     print TAP version 13 on stdout (the human report goes to stderr)
  --timeout-ms N            time limit per request (default ${DEFAULT_TIMEOUT_MS})
  --insecure                (HTTP modes) accept a self-signed TLS certificate

Exit codes: 0 every required case passed, 1 failures, 2 the harness itself could not run.
`;

function positiveInt(v: string | undefined, name: string, dflt: number, allowZero = false): number {
  if (v === undefined) return dflt;
  if (!/^[0-9]+$/.test(v) || (!allowZero && Number(v) === 0)) throw new UsageError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} whole number`);
  return Number(v);
}

const list = (vs: string[] | undefined) => (vs ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);

function writeReport(file: string, text: string): void {
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new HarnessError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

function referenceArgv(): string[] {
  return [process.execPath, self, 'adapter'];
}

/** The report options every mode takes. */
interface Reports {
  json?: string;
  junit?: string;
  tap?: boolean;
}
const REPORT_OPTIONS = {
  json: { type: 'string' },
  junit: { type: 'string' },
  tap: { type: 'boolean' },
  'timeout-ms': { type: 'string' },
} as const;

/** Writes the reports asked for and the human one; returns the exit code. */
function emit(result: RunResult, r: Reports, strict = false): 0 | 1 {
  const code = exitCodeOf(result, { strict });
  const human = r.tap ? process.stderr : process.stdout;
  if (r.json) writeReport(r.json, toJsonReport(result, { runner: RUNNER, exit_code: code }));
  if (r.junit) writeReport(r.junit, toJunit(result));
  if (r.tap) process.stdout.write(toTap(result));
  human.write(formatHuman(result, styleFor(human)));
  return code;
}

function absoluteUrl(v: string, name: string): string {
  if (!/^https?:\/\/[^/]/.test(v)) throw new UsageError(`${name} must be an absolute http:// or https:// URL`);
  try {
    new URL(v);
  } catch {
    throw new UsageError(`${name} is not a URL: ${v}`);
  }
  return v;
}

interface RunArgs extends Reports {
  impl?: string;
  vectors?: string;
  category?: string[];
  id?: string[];
  'timeout-ms'?: string;
  'fail-fast'?: boolean;
  strict?: boolean;
  'max-restarts'?: string;
}

function parseRun(args: string[]): RunArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      impl: { type: 'string' },
      vectors: { type: 'string' },
      category: { type: 'string', multiple: true, short: 'c' },
      id: { type: 'string', multiple: true },
      ...REPORT_OPTIONS,
      'fail-fast': { type: 'boolean' },
      strict: { type: 'boolean' },
      'max-restarts': { type: 'string' },
    },
  });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  return values as RunArgs;
}

async function commandRun(a: RunArgs): Promise<number> {
  const timeoutMs = positiveInt(a['timeout-ms'], '--timeout-ms', DEFAULT_TIMEOUT_MS);
  const maxRestarts = positiveInt(a['max-restarts'], '--max-restarts', DEFAULT_MAX_RESTARTS, true);
  let argv: string[];
  try {
    argv = a.impl === undefined ? referenceArgv() : splitCommandLine(a.impl);
  } catch (e) {
    throw new UsageError(`--impl: ${(e as Error).message}`);
  }
  const suite = selectCases(loadSuite(resolve(a.vectors ?? defaultVectorsDir())), {
    categories: list(a.category),
    ids: list(a.id),
  });
  const progress = process.stderr.isTTY === true;
  let failedSoFar = 0;
  const result: RunResult = await runSuite({
    suite,
    argv,
    command: a.impl ?? REFERENCE,
    timeoutMs,
    failFast: a['fail-fast'] ?? false,
    maxRestarts,
    ...(progress
      ? {
          onCase: (r, done, total) => {
            if (FAILED_STATUSES.has(r.status)) failedSoFar++;
            process.stderr.write(progressLine(done, total, r.id, failedSoFar, process.stderr.columns));
          },
        }
      : {}),
  });
  if (progress) process.stderr.write(`\r${' '.repeat(Math.max(20, (process.stderr.columns ?? 80) - 1))}\r`);
  return emit(result, a, a.strict ?? false);
}

async function commandAdapter(args: string[]): Promise<number> {
  if (args.length) throw new UsageError(`adapter takes no arguments (got ${args[0]})`);
  const { serve } = await import('./harness/adapter.js');
  await serve();
  process.stdin.destroy();
  return 0;
}

async function commandWebhookEndpoint(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { url: { type: 'string' }, 'merchant-id': { type: 'string' }, secret: { type: 'string' }, insecure: { type: 'boolean' }, ...REPORT_OPTIONS },
  });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  // The secret may come from the environment, so it need not appear in the process list.
  const secret = values.secret ?? process.env['PAY_WEBHOOK_SECRET'];
  if (!values.url || !values['merchant-id'] || !secret) {
    throw new UsageError('webhook-endpoint needs --url, --merchant-id and --secret (or PAY_WEBHOOK_SECRET in the environment)');
  }
  const result = await runWebhookEndpoint({
    url: absoluteUrl(values.url, '--url'),
    merchantId: values['merchant-id'],
    secret,
    timeoutMs: positiveInt(values['timeout-ms'], '--timeout-ms', DEFAULT_TIMEOUT_MS),
    insecure: values.insecure ?? false,
    version: RUNNER.version,
  });
  return emit(result, values);
}

async function commandServer(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      'card-proxy-url': { type: 'string' },
      'merchant-id': { type: 'string' },
      secret: { type: 'string' },
      'webhook-url': { type: 'string' },
      insecure: { type: 'boolean' },
      ...REPORT_OPTIONS,
    },
  });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  const secret = values.secret ?? process.env['PAY_SECRET'];
  if (!values['base-url'] || !values['card-proxy-url'] || !values['merchant-id'] || !secret) {
    throw new UsageError('server needs --base-url, --card-proxy-url, --merchant-id and --secret (or PAY_SECRET in the environment)');
  }
  const result = await runServer({
    baseUrl: absoluteUrl(values['base-url'], '--base-url'),
    cardProxyUrl: absoluteUrl(values['card-proxy-url'], '--card-proxy-url'),
    merchantId: values['merchant-id'],
    secret,
    timeoutMs: positiveInt(values['timeout-ms'], '--timeout-ms', DEFAULT_TIMEOUT_MS),
    insecure: values.insecure ?? false,
    ...(values['webhook-url'] ? { webhookUrl: absoluteUrl(values['webhook-url'], '--webhook-url') } : {}),
    version: RUNNER.version,
  });
  return emit(result, values);
}

/**
 * No arguments: every mode against the toolkit's own implementations. The suite against the
 * reference adapter, webhook-endpoint against an embedded receiver, server against an embedded
 * sandbox.
 */
async function commandDefault(): Promise<number> {
  const codes = [await commandRun({})];
  process.stdout.write('\n');
  const { startEmbeddedReceiver } = await import('./http/embedded-receiver.js');
  const receiver = await startEmbeddedReceiver();
  try {
    const run = await runWebhookEndpoint({ url: receiver.url, merchantId: receiver.merchantId, secret: receiver.secret, timeoutMs: DEFAULT_TIMEOUT_MS, version: RUNNER.version });
    run.implementation.command = `${receiver.url} (embedded receiver on @pay/webhook)`;
    codes.push(emit(run, {}));
  } finally {
    await receiver.close();
  }
  process.stdout.write('\n');
  const { startEmbeddedSandbox } = await import('./http/embedded-sandbox.js');
  const sandbox = await startEmbeddedSandbox();
  try {
    const run = await runServer({ ...sandbox, timeoutMs: DEFAULT_TIMEOUT_MS, version: RUNNER.version });
    run.implementation.command = `${sandbox.baseUrl} (embedded @pay/sandbox)`;
    codes.push(emit(run, {}));
  } finally {
    await sandbox.close();
  }
  return Math.max(...codes);
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case undefined:
        return await commandDefault();
      case 'run':
        return await commandRun(parseRun(rest));
      case 'adapter':
        return await commandAdapter(rest);
      case 'webhook-endpoint':
        return await commandWebhookEndpoint(rest);
      case 'server':
        return await commandServer(rest);
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return 0;
      case '--version':
        process.stdout.write(`${RUNNER.version}\n`);
        return 0;
      default:
        if (cmd.startsWith('-')) return await commandRun(parseRun(argv));
        throw new UsageError(`unknown command: ${cmd}`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`pay-conformance: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof VectorError || e instanceof HarnessError) {
      process.stderr.write(`pay-conformance: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`pay-conformance: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`pay-conformance: ${String(e)}\n`);
    process.exitCode = 2;
  },
);
