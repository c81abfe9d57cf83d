#!/usr/bin/env node
// A payin lookup by id through @pay/client, side by side in one run with the same lookup by raw
// fetch (signed by hand with node:crypto) and by openapi-fetch on @pay/schema's OpenAPI document,
// against a local server (its own process) answering a fixed record. Run `pnpm build` first;
// ROUNDS=81 runs more rounds (41 of 150 ms each by default).
//
// Every contender signs the exact URL, sends it on a keep-alive connection, reads the body and
// parses the JSON. The client also validates the record against the response schema, reads its
// datetimes as Dates, caps what it reads and bounds each attempt's time: the work the others leave
// to the caller. It runs twice: as a Node application gets it (over node:http), and given
// `options.fetch` (over fetch, as on every other runtime).
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import { PayinLookupResponse, parseDateTime, validate } from '@pay/schema';
import createFetchClient from 'openapi-fetch';
import { compare } from '../../../tools/bench.mjs';
import { createClient } from '../dist/index.js';

const server = fork(new URL('./fixed-server.mjs', import.meta.url), { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const [port] = await once(server.stdout, 'data');
const baseUrl = `http://127.0.0.1:${String(port).trim()}`;
const merchantId = 'm_bench';
const secret = 'sk_bench_secret';
const id = 'pi_bench_1';

// Raw fetch, signed by hand (`signal`: given to fetch; undefined gives none): the floor every
// client is measured against.
async function rawLookup(signal) {
  const url = `${baseUrl}/v2/merchants/payins/${id}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${merchantId}${timestamp}GET${url}`).digest('hex');
  const response = await fetch(url, {
    headers: { 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature, accept: 'application/json' },
    signal,
  });
  const data = await response.json();
  if (data.id !== id) throw new Error('wrong record');
}
const raw = () => rawLookup(undefined);

// The same, given an AbortSignal that is never aborted and no timer: the least any fetch that can
// be cancelled pays (Node's fetch follows every signal it is given, whatever the signal does).
const rawWithSignal = () => rawLookup(new AbortController().signal);

// The same, with a per-request time limit: what any fetch that can time out pays, as the client's
// attempts do.
async function rawWithTimeout() {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    await rawLookup(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

// The same on node:http's global keep-alive agent, body collected by hand: the floor of the stack
// the client uses on Node, so the client's own cost there is visible too.
function rawHttp() {
  const url = `${baseUrl}/v2/merchants/payins/${id}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${merchantId}${timestamp}GET${url}`).digest('hex');
  const headers = { 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature, accept: 'application/json' };
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const data = JSON.parse(Buffer.concat(chunks).toString());
          if (data.id === id) resolve();
          else reject(new Error('wrong record'));
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

// The same on node:http, doing by hand the work the client does with every lookup: the id
// checked and percent-encoded into the URL, a time limit per attempt, a cap on what is read, a
// dropped connection told from an answer, the headers as a web `Headers` (what the client's
// `response.headers` is, on every runtime), the record checked against the interface's response
// schema, and its datetimes read as Dates. Against this, the client's ratio is what its own
// structure costs (typed outcomes, hooks and telemetry looked up, retries and reconciliation ready).
function rawHttpSameWork() {
  if (typeof id !== 'string' || id.length === 0 || /\p{Surrogate}/u.test(id) || id === '.' || id === '..') throw new Error('bad id');
  const url = `${baseUrl}/v2/merchants/payins/${encodeURIComponent(id)}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', secret).update(`${merchantId}${timestamp}GET${url}`).digest('hex');
  const headers = { 'x-merchant-id': merchantId, 'x-timestamp': timestamp, 'x-signature': signature, accept: 'application/json' };
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.get(url, { headers }, (res) => {
      answered = true;
      const chunks = [];
      let size = 0;
      res.on('data', (chunk) => {
        size += chunk.length;
        if (size > 1024 * 1024) request.destroy(new Error('too large'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const received = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) received.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        if (!/^application\/json\b/.test(received.get('content-type') ?? '')) return reject(new Error('not JSON'));
        const checked = validate(PayinLookupResponse, JSON.parse(Buffer.concat(chunks).toString()));
        if (!checked.ok) return reject(new Error('not a payin'));
        const data = checked.value;
        for (const field of ['created_at', 'updated_at', 'expires_at']) data[field] = parseDateTime(data[field]);
        if (data.id === id) resolve();
        else reject(new Error('wrong record'));
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => request.destroy(new Error('timeout')), 30_000);
    request.on('close', () => {
      if (!answered) reject(new Error('closed before an answer'));
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const lookupWith = (pay) => async () => {
  const { data } = await pay.payins.get(id);
  if (data.id !== id) throw new Error('wrong record');
};
const client = lookupWith(createClient({ baseUrl, merchantId, secret }));
const clientOverFetch = lookupWith(createClient({ baseUrl, merchantId, secret, fetch: globalThis.fetch }));

// openapi-fetch on the published OpenAPI document's paths, signing in a middleware.
const openapi = createFetchClient({ baseUrl });
openapi.use({
  onRequest({ request }) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${merchantId}${timestamp}GET${request.url}`).digest('hex');
    request.headers.set('x-merchant-id', merchantId);
    request.headers.set('x-timestamp', timestamp);
    request.headers.set('x-signature', signature);
    return request;
  },
});
async function viaOpenapiFetch() {
  const { data } = await openapi.GET('/v2/merchants/payins/{id}', { params: { path: { id } } });
  if (data.id !== id) throw new Error('wrong record');
}

try {
  const ratios = await compare(
    'payin lookup by id over HTTP (loopback, keep-alive)',
    ['raw fetch + node:crypto', raw],
    {
      '@pay/client payins.get': client,
      '@pay/client payins.get given options.fetch': clientOverFetch,
      'raw fetch + node:crypto + an AbortSignal': rawWithSignal,
      'raw fetch + node:crypto + timeout signal': rawWithTimeout,
      'openapi-fetch + signing middleware': viaOpenapiFetch,
      'raw node:http + node:crypto (no time limit)': rawHttp,
      'raw node:http + the same work by hand': rawHttpSameWork,
    },
    { rounds: Number(process.env.ROUNDS ?? 41), time: 150 },
  );
  const timed = ratios['@pay/client payins.get given options.fetch'] / ratios['raw fetch + node:crypto + timeout signal'];
  console.log(`  @pay/client over fetch against raw fetch with the same kind of time limit: ${timed.toFixed(2)}x`);
  const byHand = ratios['@pay/client payins.get'] / ratios['raw node:http + the same work by hand'];
  const bare = ratios['@pay/client payins.get'] / ratios['raw node:http + node:crypto (no time limit)'];
  console.log(
    `  @pay/client over node:http against raw node:http: ${bare.toFixed(2)}x; against it doing the same work by hand: ${byHand.toFixed(2)}x`,
  );
} finally {
  server.disconnect();
  server.kill();
}
