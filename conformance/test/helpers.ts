// What the tests share: the package's paths, running the built CLI, adapters and fixtures by
// command line, and the JSON report's shape as the tests read it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = join(pkgDir, '..');
export const cliPath = join(pkgDir, 'dist', 'cli.js');
export const fixtures = join(pkgDir, 'test', 'fixtures');
export const fixtureVectors = join(fixtures, 'vectors');
export const goldenVectors = join(repoDir, 'vectors');
export const broken = (args: string) => `node ${JSON.stringify(join(fixtures, 'broken-adapter.mjs'))} ${args}`;
export const python = `python3 ${JSON.stringify(join(pkgDir, 'adapters', 'python', 'adapter.py'))}`;
export const brokenPython = (args: string) => `python3 ${JSON.stringify(join(fixtures, 'broken_adapter.py'))} ${args}`;

if (!existsSync(cliPath)) throw new Error(`build the package first: ${cliPath} is missing`);

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runCli(
  args: string[],
  opts: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliRun> {
  return runCommand(process.execPath, [cliPath, ...args], opts);
}

export function runCommand(
  cmd: string,
  args: string[],
  opts: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliRun> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? pkgDir, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${opts.timeoutMs ?? 30_000} ms\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A new empty directory for a test, removed after the run (tmp-root.ts). */
export const tmp = (): string => mkdtempSync(join(inject('tmpRoot'), 'test-'));

/** Runs jobs with at most `limit` at a time. */
export async function pool<T, R>(items: readonly T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await job(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface JsonCase {
  id: string;
  category: string;
  status: string;
  mistake?: string;
  mistake_candidates?: string[];
  child_exited_after?: { code: number | null; signal: string | null };
  diagnosis?: string;
  stderr?: string;
  reason_mismatch?: unknown;
  chosen_verdict?: string;
  first_difference?: { offset: number };
  expected: unknown;
  got: unknown;
  duration_ms: number;
}
export interface JsonReport {
  suite: string;
  suite_version: string;
  implementation: { command: string; name?: string; version?: string; language?: string; capabilities?: string[]; hello_error?: string };
  exit_code: number;
  summary: { total: number; passed: number; failed: number; skipped: number };
  categories: { category: string; total: number; passed: number; failed: number; skipped: number }[];
  cases: JsonCase[];
  restarts: number;
  stopped_early?: string;
  child_hint?: string;
}

export const brokenClient = (mistake: string) => `python3 ${JSON.stringify(join(fixtures, 'broken_client.py'))} --mistake ${mistake}`;
export const brokenClientJs = (mistake: string) => `node ${JSON.stringify(join(fixtures, 'broken-client.mjs'))} --mistake ${mistake}`;
