// The command line as a user runs it: a real `pay-sandbox` process, its output collected.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { runCommandLine } from '../src/cli/main.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

/** A running `pay-sandbox` process. */
export interface Running {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the output once it contains `text`. */
  waitFor: (text: string | RegExp) => Promise<string>;
  exited: Promise<number | null>;
}

/** Starts `pay-sandbox` (the built CLI) as a user would, collecting what it prints. */
export function run(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters: { text: string | RegExp; resolve: (s: string) => void }[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const w of [...waiters]) {
      if (typeof w.text === 'string' ? out.includes(w.text) : w.text.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(out);
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    waitFor: (text) =>
      (typeof text === 'string' ? out.includes(text) : text.test(out))
        ? Promise.resolve(out)
        : new Promise((resolve) => waiters.push({ text, resolve })),
    exited,
  };
}

/** The value printed after a label in the banner. */
export const field = (out: string, label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(out)![1]!;

/** What a `pay-sandbox` command printed, and how it exited. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `pay-sandbox` command (the built CLI) to its end, as a user would. The environment's
 * PAY_SANDBOX_URL and PAY_SANDBOX_MERCHANT are cleared unless `env` sets them, so a developer's
 * own settings never leak into a test.
 */
export function runToEnd(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, PAY_SANDBOX_URL: '', PAY_SANDBOX_MERCHANT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The environment a command runs with: this one, without a developer's own sandbox settings, and `env`. */
const commandEnv = (env: Record<string, string>) => ({ ...process.env, PAY_SANDBOX_URL: '', PAY_SANDBOX_MERCHANT: '', ...env });

/**
 * Runs a `pay-sandbox` command line in this process, through the function the CLI's process runs
 * (src/cli/main.ts), with what it prints collected as the process would print it: each line its
 * own write, ended by a newline. A command is a short-lived process, and starting Node for each of
 * many cases costs more than the cases; the process itself is held by the cases that spawn it, and
 * by the test that compares both ways on the same command lines (commands.test.ts).
 */
export async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine(args, {
    out: (text) => void (stdout += `${text}\n`),
    err: (text) => void (stderr += `${text}\n`),
    env: commandEnv(env),
  });
  return { code: code ?? null, stdout, stderr };
}
