// A command run to its end without blocking the event loop (a test may serve what the command
// talks to from its own process): its exit code, signal and whole output. Killed after
// `timeoutMs`, so a command that hangs ends the test instead of holding it.
import { spawn } from 'node:child_process';

/** @type {import('./index.d.ts').runToEnd} */
export function runToEnd(cmd, args, { cwd, env, timeoutMs = 90_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
