#!/usr/bin/env node
/// <reference types="node" />
// `pay-sandbox [--port N] [--host 127.0.0.1] [--merchant ID:SECRET[:STATIC_WEBHOOK_URL]]...`
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEMO_MERCHANT, parseMerchant, type Merchant } from './merchants.js';
import { redactUrl } from './redact.js';
import { startSandbox } from './node.js';
import { parseSeed, type Seed } from './seed.js';

const USAGE = `Usage: pay-sandbox [--port N] [--host 127.0.0.1] [--merchant ID:SECRET[:STATIC_WEBHOOK_URL]]...

A local stand-in for the payments service. Merchants also come from PAY_SANDBOX_MERCHANTS
(ID:SECRET[:URL] entries separated by white space); with none, a demo merchant is used.
Options:
  --port N                port to listen on (default 4010; 0 picks a free one)
  --host ADDRESS          interface to listen on (default 127.0.0.1)
  --merchant SPEC         a merchant, ID:SECRET or ID:SECRET:STATIC_WEBHOOK_URL (repeatable)
  --state FILE            load the sandbox's state from FILE at start (if it exists) and write it
                          back there while running and on exit
  --seed FILE             create the transactions in FILE at start (JSON: {"transactions": [...]})
  --public-url URL        the origin clients call when it is not what reaches the sandbox (a proxy)
  --allow-http-host NAME  a host of a private network (docker-compose) where plain http is fine:
                          the sandbox answers under it and sends webhooks to http://NAME... (repeatable;
                          also PAY_SANDBOX_ALLOW_HTTP_HOSTS, comma-separated)
  --max-transactions N    transactions kept at most, the oldest forgotten (default 10000)
  --quiet                 no log line per request or webhook attempt
  --help                  this text`;

/** The sandbox's port when none is given. */
const DEFAULT_PORT = 4010;

function fail(message: string): never {
  process.stderr.write(`pay-sandbox: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let values: {
  port?: string;
  host?: string;
  merchant?: string[];
  state?: string;
  seed?: string;
  'public-url'?: string;
  'allow-http-host'?: string[];
  'max-transactions'?: string;
  quiet?: boolean;
  help?: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      merchant: { type: 'string', multiple: true },
      state: { type: 'string' },
      seed: { type: 'string' },
      'public-url': { type: 'string' },
      'allow-http-host': { type: 'string', multiple: true },
      'max-transactions': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : 'bad arguments');
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
if (!/^[0-9]+$/.test(values.port ?? '0') || !Number.isInteger(port) || port > 65535) fail(`--port must be a number from 0 to 65535`);
const specs = [...(process.env['PAY_SANDBOX_MERCHANTS'] ?? '').split(/\s+/).filter(Boolean), ...(values.merchant ?? [])];
let merchants: Merchant[];
try {
  merchants = specs.map(parseMerchant);
} catch (error) {
  fail(error instanceof Error ? error.message : 'bad merchant');
}
const log = values.quiet ? undefined : (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
const allowHttpHosts = [...(process.env['PAY_SANDBOX_ALLOW_HTTP_HOSTS'] ?? '').split(',').map((h) => h.trim()).filter(Boolean), ...(values['allow-http-host'] ?? [])];
const maxText = values['max-transactions'];
if (maxText !== undefined && !/^[0-9]{1,7}$/.test(maxText)) fail('--max-transactions must be a whole number');
let seed: Seed | undefined;
if (values.seed !== undefined) {
  try {
    seed = parseSeed(JSON.parse(readFileSync(values.seed, 'utf8')));
  } catch (error) {
    fail(`--seed ${values.seed}: ${error instanceof Error ? error.message.slice(0, 600) : 'cannot be read'}`);
  }
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
try {
  sandbox = await startSandbox({
    port,
    host: values.host ?? '127.0.0.1',
    merchants,
    ...(log ? { log } : {}),
    ...(values.state === undefined ? {} : { stateFile: values.state }),
    ...(seed === undefined ? {} : { seed }),
    ...(values['public-url'] === undefined ? {} : { publicUrl: values['public-url'] }),
    ...(allowHttpHosts.length === 0 ? {} : { allowHttpHosts }),
    ...(maxText === undefined ? {} : { maxTransactions: Number(maxText) }),
  });
} catch (error) {
  const code = (error as { code?: string }).code;
  fail(code === 'EADDRINUSE' ? `port ${port} is in use (try --port 0)` : error instanceof Error ? error.message : 'cannot start');
}

const demo = merchants.length === 0;
const lines = [
  `pay-sandbox listening`,
  `  base URL        ${sandbox.url}`,
  `  card proxy URL  ${sandbox.cardProxyUrl}`,
  `  dashboard       ${sandbox.dashboardUrl}`,
  ...(values.state === undefined ? [] : [`  state file      ${values.state}`]),
  // The secret is printed only for the demo merchant, whose credentials are public anyway.
  ...sandbox.merchants.map((m) =>
    demo ? `  merchant        ${m.id} (demo), secret ${DEMO_MERCHANT.secret}` : `  merchant        ${m.id}${m.webhookUrl ? `, static webhook ${redactUrl(m.webhookUrl)}` : ''}`,
  ),
  `Press Ctrl-C to stop.`,
];
process.stdout.write(`${lines.join('\n')}\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`pay-sandbox: ${signal}, stopping\n`);
    sandbox.close().then(
      () => {
        process.stdout.write('pay-sandbox: stopped\n');
        process.exit(0);
      },
      () => process.exit(1),
    );
  });
}
