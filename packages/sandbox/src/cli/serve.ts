// `pay-sandbox [serve] [--port N] [--host 127.0.0.1] [--merchant ID:SECRET[:STATIC_WEBHOOK_URL]]...`:
// starts a sandbox, prints where it is, logs a line per request and webhook attempt, and stops
// cleanly on SIGINT and SIGTERM.
import { readFileSync } from 'node:fs';
import { DEMO_MERCHANT, parseMerchant, type Merchant } from '../merchants.js';
import { maskText } from '../masking.js';
import { isSandboxPortInUseError, type SandboxPortInUseError } from '../port-in-use.js';
import { startSandbox } from '../server-node.js';
import { FILE_REFUSED } from '../state-file.js';
import { parseSeed, type Seed } from '../seed.js';
import { EXIT, parse, Refusal, UsageError, type Io } from './common.js';
import { DEFAULT_SANDBOX_URL, USAGE } from './usage.js';

/** What the admin token is for, as the banner says it. */
const TOKEN_FROM_ELSEWHERE = 'for the admin API and dashboard from anywhere but this machine';
const TOKEN_FROM_EVERYONE =
  "asked of every caller, this machine's too: the sandbox is reachable from elsewhere; the commands read it from PAY_SANDBOX_ADMIN_TOKEN";

/** The sandbox's port when none is given. */
const DEFAULT_PORT = 4010;

function fail(message: string): never {
  throw new UsageError(message, USAGE);
}

/** What to do about a taken port: most often, use the sandbox already there. */
function portTaken({ port, sandboxAnswers, url }: SandboxPortInUseError): string {
  const commands = url === DEFAULT_SANDBOX_URL ? '' : ` (the commands reach it with --url ${url})`;
  return sandboxAnswers
    ? `port ${port} is in use: a payments sandbox is already running there (${url}/_sandbox/). Use it${commands}, stop it (Ctrl-C where it runs), or start another with --port 0 (a free port)`
    : `port ${port} is in use by another program (no payments sandbox answers there): stop it, or start with --port 0 (a free port) or another --port`;
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  merchant: { type: 'string', multiple: true },
  state: { type: 'string' },
  seed: { type: 'string' },
  'public-url': { type: 'string' },
  'allow-http-host': { type: 'string', multiple: true },
  'max-transactions': { type: 'string' },
  'no-unique-references': { type: 'boolean' },
  'admin-token': { type: 'string' },
  'local-receiver': { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `pay-sandbox [serve] [options]`: starts a sandbox. Resolves once it listens, with no exit code
 * (the server then keeps the process alive until SIGINT or SIGTERM stops it), or with 0 once the
 * help is printed.
 *
 * @throws UsageError for options it cannot start with (exit code 2).
 */
export async function serve(args: readonly string[], io: Io): Promise<number | undefined> {
  const { values } = parse(args, OPTIONS, USAGE);
  if (values.help) {
    io.out(USAGE);
    return EXIT.ok;
  }

  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!/^[0-9]+$/.test(values.port ?? '0') || !Number.isInteger(port) || port > 65535) fail(`--port must be a number from 0 to 65535`);
  const specs = [...(io.env['PAY_SANDBOX_MERCHANTS'] ?? '').split(/\s+/).filter(Boolean), ...(values.merchant ?? [])];
  let merchants: Merchant[];
  try {
    merchants = specs.map(parseMerchant);
  } catch (error) {
    fail(error instanceof Error ? error.message : 'bad merchant');
  }
  const log = values.quiet ? undefined : (line: string) => io.out(`${new Date().toISOString()} ${line}`);
  const allowHttpHosts = [
    ...(io.env['PAY_SANDBOX_ALLOW_HTTP_HOSTS'] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    ...(values['allow-http-host'] ?? []),
  ];
  const maxText = values['max-transactions'];
  if (maxText !== undefined && !/^[0-9]{1,7}$/.test(maxText)) fail('--max-transactions must be a whole number');
  let seed: Seed | undefined;
  if (values.seed !== undefined) {
    try {
      seed = parseSeed(JSON.parse(readFileSync(values.seed, 'utf8')));
    } catch (error) {
      throw new Refusal(`--seed ${values.seed}: ${error instanceof Error ? error.message.slice(0, 600) : 'cannot be read'}`);
    }
  }

  const adminToken = values['admin-token'] ?? (io.env['PAY_SANDBOX_ADMIN_TOKEN'] || undefined);
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
      ...(values['no-unique-references'] ? { uniqueReferences: false } : {}),
      ...(adminToken === undefined ? {} : { adminToken }),
      ...(values['local-receiver'] === undefined ? {} : { localReceivers: values['local-receiver'] }),
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === FILE_REFUSED) throw new Refusal((error as Error).message.slice(0, 600));
    // Not a usage error: the command line was fine, the machine's state is not (exit code 1).
    if (isSandboxPortInUseError(error)) throw new Refusal(portTaken(error));
    fail(error instanceof Error ? error.message : 'cannot start');
  }

  const demo = merchants.length === 0;
  const lines = [
    `pay-sandbox listening`,
    `  base URL        ${sandbox.url}`,
    `  card proxy URL  ${sandbox.cardProxyUrl}`,
    `  dashboard       ${sandbox.dashboardUrl}`,
    ...(values.state === undefined ? [] : [`  state file      ${values.state}`]),
    // Printed only when made here: a token the developer gave, they already have.
    adminToken === undefined
      ? `  admin token     ${sandbox.adminToken} (${sandbox.signInUrl === undefined ? TOKEN_FROM_ELSEWHERE : TOKEN_FROM_EVERYONE})`
      : `  admin token     as given${sandbox.signInUrl === undefined ? '' : ` (${TOKEN_FROM_EVERYONE})`}`,
    // Reachable from elsewhere, the admin area asks this machine too: the browser signs in with a
    // one-time link (its code in the fragment, so in no log).
    ...(sandbox.signInUrl === undefined ? [] : [`  sign-in link    ${sandbox.signInUrl}  (opens the dashboard in your browser, once)`]),
    // The secret is printed only for the demo merchant, whose credentials are public anyway.
    ...sandbox.merchants.map((m) =>
      demo
        ? `  merchant        ${m.id} (demo), secret ${DEMO_MERCHANT.secret}`
        : `  merchant        ${m.id}${m.webhookUrl ? `, static webhook ${maskText(m.webhookUrl)}` : ''}`,
    ),
    // What the commands (`pay-sandbox payin create`, `transactions`...) need to reach this sandbox
    // and sign for it, when it is not what they assume (127.0.0.1:4010, the demo merchant).
    ...(sandbox.url === DEFAULT_SANDBOX_URL
      ? []
      : [`  commands        pay-sandbox COMMAND --url ${sandbox.url}  (or export PAY_SANDBOX_URL=${sandbox.url})`]),
    ...(demo
      ? []
      : [
          `  ${sandbox.url === DEFAULT_SANDBOX_URL ? 'commands      ' : '              '}  pay-sandbox payin create --merchant ${sandbox.merchants[0]!.id}:SECRET  (or PAY_SANDBOX_MERCHANT=${sandbox.merchants[0]!.id}:SECRET)`,
        ]),
    `Press Ctrl-C to stop.`,
  ];
  io.out(lines.join('\n'));

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      io.out(`pay-sandbox: ${signal}, stopping`);
      sandbox.close().then(
        () => {
          io.out('pay-sandbox: stopped');
          process.exit(0);
        },
        () => process.exit(1),
      );
    });
  }
  return undefined;
}
