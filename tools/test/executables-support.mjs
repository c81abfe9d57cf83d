// What tools/test/executables.test.mjs needs around the processes it runs: a machine without
// Node (a PATH holding python3 alone), commands run to their end within a limit, and servers
// started in the background until they print the address they listen on.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runToEnd } from '../support/run-to-end.mjs';

/**
 * The Python interpreter itself, not what `python3` on PATH names: that may be a version manager's
 * shim, a shell script that would need bash on the bare PATH.
 */
function pythonInterpreter() {
  const path = execFileSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], { encoding: 'utf8' }).trim();
  if (!path) throw new Error('python3 does not say where its interpreter is');
  return path;
}

/**
 * An environment as a Python developer's machine without Node has it: PATH is one directory
 * (inside `dir`) holding a link to python3 and nothing else, and nothing of this process's
 * environment is passed on (no NODE_OPTIONS, no npm_* variables).
 */
export function withoutNode(dir) {
  const bin = join(dir, 'path');
  mkdirSync(bin);
  symlinkSync(pythonInterpreter(), join(bin, 'python3'));
  return { PATH: bin, HOME: dir, LANG: 'C.UTF-8', NO_COLOR: '1' };
}

/** Runs a command to its end (see @pay/test-support). */
export const run = runToEnd;

/**
 * Starts a server in the background and waits (at most `timeoutMs`) until its stdout matches
 * `pattern`; resolves with the match's first group and a stop() that kills it and waits for it.
 */
export function startServer(cmd, args, { cwd, env, pattern, timeoutMs = 20_000 }) {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop();
      reject(new Error(`${cmd} ${args.join(' ')}: ${why}\n${output}`));
    };
    const timer = setTimeout(() => fail(`printed no address within ${timeoutMs} ms`), timeoutMs);
    const read = (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        child.stdout.off('data', read);
        resolve({ address: match[1], stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (c) => (output += c));
    child.on('error', (error) => fail(error.message));
    child.on('close', (code) => fail(`exited (${code}) before printing its address`));
  });
}
