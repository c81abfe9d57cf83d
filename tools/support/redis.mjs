// A real redis-server for tests: Debian's package, started on a free loopback port with
// persistence off, ready once it says so, killed afterwards. Without the binary the tests are
// skipped and say so, unless PAY_REQUIRE_REDIS=1 (set by CI) makes that a failure.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './ports.mjs';

export const REDIS_SERVER = process.env['REDIS_SERVER_PATH'] ?? '/usr/bin/redis-server';
export const redisAvailable = existsSync(REDIS_SERVER);
if (!redisAvailable && process.env['PAY_REQUIRE_REDIS'] === '1') {
  throw new Error(`PAY_REQUIRE_REDIS=1 but there is no redis-server at ${REDIS_SERVER} (apt-get install redis-server)`);
}
if (!redisAvailable) console.warn(`SKIPPED: the Redis tests need ${REDIS_SERVER} (apt-get install redis-server)`);

/**
 * Starts redis-server on a free port and resolves when it accepts connections.
 * @returns {Promise<import('./redis.d.mts').RunningRedis>}
 */
export async function startRedis() {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const ready = await new Promise((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', () => resolve(false)); // the port was taken in the meantime, say
    });
    if (ready) {
      child.stdout.resume();
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
