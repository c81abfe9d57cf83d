#!/usr/bin/env node
// What OpenTelemetry costs a payin lookup by id (tools/otel/bench.mjs says how it is measured),
// against the local server of the lookup benchmark (its own process, a fixed record). Run
// `pnpm build` first; ROUNDS=81 runs more rounds (41 of 150 ms each by default).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { copyWithoutPeers } from '../../../tools/bench.mjs';
import { telemetryCost } from '../../../tools/otel/bench.mjs';
import { createClient } from '../dist/index.js';

const withoutApi = await import(new URL('dist/index.js', copyWithoutPeers(new URL('..', import.meta.url).pathname)).href);

const server = fork(new URL('./fixed-server.mjs', import.meta.url), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const [port] = await once(server.stdout, 'data');
const options = { baseUrl: `http://127.0.0.1:${String(port).trim()}`, merchantId: 'm_bench', secret: 'sk_bench_secret' };
const id = 'pi_bench_1';
const lookupWith = (pay) => async () => {
  const { data } = await pay.payins.get(id);
  if (data.id !== id) throw new Error('wrong record');
};
const instrumented = lookupWith(createClient(options));
const uninstrumented = lookupWith(withoutApi.createClient(options));

try {
  await telemetryCost({
    name: '@pay/client',
    what: 'payin lookup by id',
    with: instrumented,
    without: uninstrumented,
    spans: 2, // the call's and its request's
    rounds: Number(process.env.ROUNDS ?? 41),
    time: 150,
  });
} finally {
  server.disconnect();
  server.kill();
}
