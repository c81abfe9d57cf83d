// A real redis-server for the Redis store's tests: Debian's package, started by the test on a free
// loopback port with persistence off, ready once it says so, killed afterwards. Without the binary
// the tests are skipped and say so, unless PAY_REQUIRE_REDIS=1 (set by CI) makes that a failure.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

export const REDIS_SERVER = process.env['REDIS_SERVER_PATH'] ?? '/usr/bin/redis-server';
export const redisAvailable = existsSync(REDIS_SERVER);
if (!redisAvailable && process.env['PAY_REQUIRE_REDIS'] === '1') {
  throw new Error(`PAY_REQUIRE_REDIS=1 but there is no redis-server at ${REDIS_SERVER} (apt-get install redis-server)`);
}
if (!redisAvailable) console.warn(`SKIPPED: the Redis store's tests need ${REDIS_SERVER} (apt-get install redis-server)`);

export interface RunningRedis {
  port: number;
  process: ChildProcess;
  /** Kills the server and resolves once it has exited. */
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts redis-server on a free port and resolves when it accepts connections. */
export async function startRedis(): Promise<RunningRedis> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const ready = await new Promise<boolean>((resolve) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', () => resolve(false)); // the port was taken in the meantime, say
    });
    if (ready) {
      child.stdout!.resume();
      return {
        port,
        process: child,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      };
    }
    if (attempt >= 5) throw new Error('redis-server did not start on a free port in 5 attempts');
  }
}
