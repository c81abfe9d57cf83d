// Shop instances in child processes (fixtures/instance.mjs), sharing one PostgreSQL.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { IN_FLIGHT_LEASE_MS, MERCHANT, SETTLE_S, TOLERANCE_S, TOTAL_TIMEOUT_MS } from './shop.js';

/** Settings every instance gets. */
export interface InstanceEnv {
  DATABASE_URL: string;
  SCHEMA: string;
  SANDBOX_URL: string;
  PUBLIC_URL: string;
  [key: string]: string;
}

/** Starts an instance of `fixture` (a file in test/fixtures); resolves with its first line of output (JSON) and the process. */
export function startInstance(
  env: InstanceEnv,
  fixture = 'instance.mjs',
): {
  child: ChildProcess;
  firstLine: Promise<any>;
  /** The `i`th line of output (JSON), from 0. */
  line(i: number): Promise<any>;
  exited: Promise<{ code: number | null; signal: string | null }>;
} {
  const child = spawn(process.execPath, [fileURLToPath(new URL(`../fixtures/${fixture}`, import.meta.url))], {
    env: {
      ...process.env,
      MERCHANT_ID: MERCHANT.id,
      MERCHANT_SECRET: MERCHANT.secret,
      TOLERANCE_S: String(TOLERANCE_S),
      SETTLE_S: String(SETTLE_S),
      TOTAL_TIMEOUT_MS: String(TOTAL_TIMEOUT_MS),
      IN_FLIGHT_LEASE_MS: String(IN_FLIGHT_LEASE_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  if (process.env['JOURNAL_DEBUG']) child.stderr!.pipe(process.stderr);
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Each line of output (JSON), in order: line(0) is the first.
  const seen: Promise<any>[] = [];
  const waiting: { resolve(v: unknown): void; reject(e: Error): void }[] = [];
  const line = (i: number): Promise<any> => {
    while (seen.length <= i) {
      seen.push(new Promise((resolve, reject) => waiting.push({ resolve, reject })));
      seen.at(-1)!.catch(() => {});
    }
    return seen[i]!;
  };
  let next = 0;
  createInterface({ input: child.stdout! }).on('line', (text) => {
    line(next);
    waiting[next++]!.resolve(JSON.parse(text));
  });
  child.once('exit', (code, signal) =>
    setTimeout(() => {
      for (let i = next; i < waiting.length; i++)
        waiting[i]!.reject(new Error(`instance exited (${code ?? signal}) before answering: ${stderr}`));
    }, 50),
  );
  const firstLine = line(0);
  return { child, firstLine, line, exited };
}
