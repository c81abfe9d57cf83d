#!/usr/bin/env node
// `node dist/main.js`: the shop alone, against the payments service named by PAY_BASE_URL (by
// default a sandbox started with `pnpm sandbox`). See README.md for the variables.
import { ConfigError, readConfig } from './config.js';
import { startShop } from './server.js';
import { stopOnSignals } from './signals.js';

let config;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`example shop: ${error.message}\n`);
  process.exit(2);
}

const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
let shop;
try {
  shop = await startShop({ ...config, log });
} catch (error) {
  const code = (error as { code?: string }).code;
  process.stderr.write(
    `example shop: ${code === 'EADDRINUSE' ? `port ${config.port} is in use (set SHOP_PORT; 0 picks a free port)` : String(error)}\n`,
  );
  process.exit(1);
}
const running = shop;

process.stdout.write(
  [
    'Example shop listening',
    `  shop             ${running.url}/`,
    `  orders           ${running.url}/orders`,
    `  webhook URL      ${running.webhookUrl}`,
    `  payments service ${config.baseUrl} (merchant ${config.merchantId})`,
    `  database         ${running.database}`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n'),
);
stopOnSignals('example shop', () => running.close());
