#!/usr/bin/env node
// `pnpm demo`: the sandbox and the shop in one process, wired together with the sandbox's demo
// merchant. Ports: PAY_SANDBOX_PORT (default 4010) and SHOP_PORT (default 3000); 0 picks free ones.
// The shop's reconciler runs on the sandbox's clock, so advancing it on the dashboard shows the
// reconciler at work. Everything is in memory unless SHOP_DATA_DIR names a directory: then the
// shop's database and the sandbox's state (`sandbox.json`) are kept there, and survive a restart.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_MERCHANT, isSandboxPortInUseError, startSandbox } from '@pay/sandbox';
import { ConfigError, readConfig } from './config.js';
import { startShop } from './server.js';
import { stopOnSignals } from './signals.js';

const fail = (message: string): never => {
  process.stderr.write(`demo: ${message}\n`);
  process.exit(1);
};
const logAs = (who: string) => (line: string) => process.stdout.write(`${who} | ${line}\n`);

const sandboxPortText = process.env['PAY_SANDBOX_PORT']?.trim() || '4010';
const sandboxPort = Number(sandboxPortText);
if (!/^\d{1,5}$/.test(sandboxPortText) || sandboxPort > 65535) fail('PAY_SANDBOX_PORT must be a number from 0 to 65535');

const dataDir = process.env['SHOP_DATA_DIR']?.trim() || undefined;
if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
const stateFile = dataDir === undefined ? {} : { stateFile: join(dataDir, 'sandbox.json') };

// The shop's reconciler reads the sandbox's clock on each pass: those lines would drown the rest.
const sandboxLog = logAs('sandbox');
const log = (line: string) => {
  if (!line.startsWith('GET /_sandbox/clock ')) sandboxLog(line);
};

const sandbox = await startSandbox({ port: sandboxPort, log, ...stateFile }).catch((error: unknown) =>
  fail(
    !isSandboxPortInUseError(error)
      ? String(error)
      : error.sandboxAnswers
        ? `port ${sandboxPort} is in use: a payments sandbox is already running there (another pnpm demo or pnpm sandbox?); stop it, or set PAY_SANDBOX_PORT (0 picks a free port)`
        : `port ${sandboxPort} is in use by another program (not a payments sandbox); set PAY_SANDBOX_PORT (0 picks a free port)`,
  ),
);

let config;
try {
  config = readConfig({
    ...process.env,
    PAY_BASE_URL: sandbox.url,
    PAY_CARD_PROXY_URL: sandbox.cardProxyUrl,
    PAY_MERCHANT_ID: DEMO_MERCHANT.id,
    PAY_SECRET: DEMO_MERCHANT.secret,
    SHOP_SANDBOX_CLOCK: '1',
  });
} catch (error) {
  await sandbox.close();
  fail(error instanceof ConfigError ? error.message : String(error));
}
const shopConfig = config!;
const shop = await startShop({ ...shopConfig, log: logAs('shop   ') }).catch(async (error: { code?: string }) => {
  await sandbox.close();
  return fail(error.code === 'EADDRINUSE' ? `port ${shopConfig.port} is in use (set SHOP_PORT; 0 picks a free port)` : String(error));
});

process.stdout.write(
  [
    '',
    'The example shop and the payments sandbox are running.',
    `  shop       ${shop.url}/            open it and click Pay`,
    `  orders     ${shop.url}/orders`,
    `  payouts    ${shop.url}/payouts/new`,
    `  sandbox    ${sandbox.url}            (merchant ${DEMO_MERCHANT.id})`,
    `  dashboard  ${sandbox.dashboardUrl}`,
    `  database   ${shop.database}${dataDir === undefined ? ' (set SHOP_DATA_DIR to keep it)' : ''}`,
    'Press Ctrl-C to stop both.',
    '',
  ].join('\n'),
);
stopOnSignals('demo', async () => {
  await shop.close();
  await sandbox.close();
});
