// The shop's configuration, from environment variables. Every default points at a sandbox started
// with `pnpm sandbox` (or `pnpm demo`) and its demo merchant, whose credentials are public; a real
// deployment sets all of them.

/** What the shop needs to run. */
export interface ShopConfig {
  /** The payments service's base address (`PAY_BASE_URL`). */
  baseUrl: string;
  /** Where card data is pushed (`PAY_CARD_PROXY_URL`, default `<PAY_BASE_URL>/card-proxy`). */
  cardProxyUrl: string;
  /**
   * Hosts the client may reach over plain http besides loopback ones (`PAY_ALLOW_HTTP_HOSTS`,
   * comma-separated; default none): a sandbox in docker-compose, `sandbox` for `http://sandbox:4010`.
   */
  allowHttpHosts: readonly string[];
  /** The merchant id from the dashboard (`PAY_MERCHANT_ID`). */
  merchantId: string;
  /** The merchant secret key from the dashboard (`PAY_SECRET`). Never printed. */
  secret: string;
  /** The port the shop listens on (`SHOP_PORT`, default 3000; 0 picks a free one). */
  port: number;
  /** The interface the shop listens on (`SHOP_HOST`, default 127.0.0.1). */
  host: string;
  /**
   * The shop's address as customers and the service reach it (`SHOP_PUBLIC_URL`), used for the
   * redirect URLs and the webhook URL; default `http://<host>:<port>`.
   */
  publicUrl?: string;
  /** `SHOP_TEST_CONTROLS=1` adds `POST /_test/webhook-failures` (for tests; off by default). */
  testControls: boolean;
  /**
   * Where the orders and the journal live: PostgreSQL at `DATABASE_URL` (never printed), or the
   * embedded PGlite, on disk under `SHOP_DATA_DIR` (`<dir>/pglite`) or, with neither, in memory.
   */
  database: { url: string } | { dataDir: string } | { memory: true };
  /**
   * `SHOP_SANDBOX_CLOCK=1`: the journal (its reconciler included) reads the time from the
   * sandbox's clock at `PAY_BASE_URL`, so advancing that clock makes lookups due (`pnpm demo` sets
   * it). Against the real service, leave it off: the journal uses this machine's clock.
   */
  sandboxClock: boolean;
}

/** The sandbox's demo merchant (`m_demo`, `sk_sandbox_demo`): public, for local use only. */
export const DEMO_CREDENTIALS = Object.freeze({ merchantId: 'm_demo', secret: 'sk_sandbox_demo' });

/** The sandbox's address when `pnpm sandbox` runs with its defaults. */
const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** The shop's port when none is given. */
const DEFAULT_PORT = 3000;

/** Thrown for an unusable environment variable; the message names it (never a secret's value). */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function absoluteUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an absolute http(s) URL`);
  if (url.search || url.hash) throw new ConfigError(`${name} must have no query or fragment`);
  // Written without a trailing slash, so paths are appended as `${url}/...`.
  return value.replace(/\/+$/, '');
}

// A host name or a bracketed IPv6 address: no scheme, port, path or wildcard. @pay/client checks
// the entries again; checking here lets the message name the variable instead of the option.
const HOST_NAME = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/i;

function hostList(name: string, value: string | undefined): string[] {
  // Empty entries (a trailing comma) are skipped.
  const hosts = (value ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  for (const host of hosts) {
    if (!HOST_NAME.test(host))
      throw new ConfigError(
        `${name} must be host names separated by commas, without scheme or port (such as sandbox); got ${JSON.stringify(host.slice(0, 100))}`,
      );
  }
  return hosts;
}

function flag(name: string, value: string | undefined): boolean {
  if (value !== undefined && value !== '0' && value !== '1') throw new ConfigError(`${name} must be 0 or 1`);
  return value === '1';
}

/** Reads the configuration from `env` (default `process.env`). @throws ConfigError naming the variable. */
export function readConfig(env: Record<string, string | undefined> = process.env): ShopConfig {
  const get = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const baseUrl = absoluteUrl('PAY_BASE_URL', get('PAY_BASE_URL') ?? DEFAULT_BASE_URL);
  const cardProxyUrl = absoluteUrl('PAY_CARD_PROXY_URL', get('PAY_CARD_PROXY_URL') ?? `${baseUrl}/card-proxy`);
  const portText = get('SHOP_PORT') ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65535) throw new ConfigError('SHOP_PORT must be a number from 0 to 65535');
  const publicUrl = get('SHOP_PUBLIC_URL');
  const databaseUrl = get('DATABASE_URL');
  const dataDir = get('SHOP_DATA_DIR');
  if (databaseUrl !== undefined && dataDir !== undefined)
    throw new ConfigError('set DATABASE_URL (PostgreSQL) or SHOP_DATA_DIR (the embedded PGlite), not both');
  // The URL carries a password: the message names the variable and never repeats its value.
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(databaseUrl))
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  return {
    baseUrl,
    cardProxyUrl,
    allowHttpHosts: hostList('PAY_ALLOW_HTTP_HOSTS', get('PAY_ALLOW_HTTP_HOSTS')),
    merchantId: get('PAY_MERCHANT_ID') ?? DEMO_CREDENTIALS.merchantId,
    secret: get('PAY_SECRET') ?? DEMO_CREDENTIALS.secret,
    port,
    host: get('SHOP_HOST') ?? '127.0.0.1',
    ...(publicUrl === undefined ? {} : { publicUrl: absoluteUrl('SHOP_PUBLIC_URL', publicUrl) }),
    testControls: flag('SHOP_TEST_CONTROLS', get('SHOP_TEST_CONTROLS')),
    database: databaseUrl !== undefined ? { url: databaseUrl } : dataDir !== undefined ? { dataDir } : { memory: true },
    sandboxClock: flag('SHOP_SANDBOX_CLOCK', get('SHOP_SANDBOX_CLOCK')),
  };
}
