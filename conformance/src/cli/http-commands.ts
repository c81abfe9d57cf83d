// `pay-conformance server` and `pay-conformance webhook-endpoint`: their options (the secret may
// come from the environment, so it need not appear in the process list), the mode run, the reports.
import { emit } from './emit.js';
import { REPORT_OPTIONS, UsageError, absoluteUrl, parseOptions, positiveInt } from './options.js';
import { RUNNER } from './runner.js';
import { cardNumberOf, secretOf, type Sensitive } from '../http/redact.js';
import { TEST_CARD } from '../http/server/bodies.js';
import { runServer } from '../http/server/run.js';
import { runWebhookEndpoint } from '../http/webhook-endpoint/run.js';
import { DEFAULT_TIMEOUT_MS } from '../types.js';

/** What both HTTP modes take alike: who signs, the time limit, TLS leniency, and the runner's version. */
function common(merchantId: string, secret: string, values: { 'timeout-ms'?: string | undefined; insecure?: boolean | undefined }) {
  return {
    merchantId,
    secret,
    timeoutMs: positiveInt(values['timeout-ms'], '--timeout-ms', DEFAULT_TIMEOUT_MS),
    insecure: values.insecure ?? false,
    version: RUNNER.version,
  };
}

/** What a report directory masks in either mode: the secret given, and the card number pushed. */
const sensitiveOf = (secret: string): Sensitive[] => [...secretOf(secret), ...cardNumberOf(TEST_CARD.pan)];

/** `webhook-endpoint`'s arguments, read: the options of the run, the secret, and the report options. */
export function webhookEndpointOf(args: string[]) {
  const values = parseOptions(args, {
    url: { type: 'string' },
    'merchant-id': { type: 'string' },
    secret: { type: 'string' },
    insecure: { type: 'boolean' },
    ...REPORT_OPTIONS,
  });
  const secret = values.secret ?? process.env['PAY_WEBHOOK_SECRET'];
  if (!values.url || !values['merchant-id'] || !secret) {
    throw new UsageError('webhook-endpoint needs --url, --merchant-id and --secret (or PAY_WEBHOOK_SECRET in the environment)');
  }
  return { values, secret, options: { url: absoluteUrl(values.url, '--url'), ...common(values['merchant-id'], secret, values) } };
}

/** Tests a merchant's webhook endpoint; returns the exit code. */
export async function commandWebhookEndpoint(args: string[]): Promise<number> {
  const { values, secret, options } = webhookEndpointOf(args);
  return emit(await runWebhookEndpoint(options), values, false, sensitiveOf(secret));
}

/** `server`'s arguments, read: the options of the run, the secret, and the report options. */
export function serverOf(args: string[]) {
  const values = parseOptions(args, {
    'base-url': { type: 'string' },
    'card-proxy-url': { type: 'string' },
    'merchant-id': { type: 'string' },
    secret: { type: 'string' },
    'webhook-url': { type: 'string' },
    insecure: { type: 'boolean' },
    ...REPORT_OPTIONS,
  });
  const secret = values.secret ?? process.env['PAY_SECRET'];
  if (!values['base-url'] || !values['card-proxy-url'] || !values['merchant-id'] || !secret) {
    throw new UsageError('server needs --base-url, --card-proxy-url, --merchant-id and --secret (or PAY_SECRET in the environment)');
  }
  const options = {
    baseUrl: absoluteUrl(values['base-url'], '--base-url'),
    cardProxyUrl: absoluteUrl(values['card-proxy-url'], '--card-proxy-url'),
    ...common(values['merchant-id'], secret, values),
    ...(values['webhook-url'] ? { webhookUrl: absoluteUrl(values['webhook-url'], '--webhook-url') } : {}),
  };
  return { values, secret, options };
}

/** Tests a service implementation; returns the exit code. */
export async function commandServer(args: string[]): Promise<number> {
  const { values, secret, options } = serverOf(args);
  return emit(await runServer(options), values, false, sensitiveOf(secret));
}
