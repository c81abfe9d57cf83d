// An application as a merchant writes one, for the release rehearsal (tools/test/registry.test.mjs):
// copied, with index.mjs beside it, into a directory where the packages were installed from a
// registry, and run there. It registers OpenTelemetry's SDK when @opentelemetry/api is installed
// (else it runs without), then uses the three packages that record: a payin created through the
// journal (and so the client) against the sandbox, and a signed webhook handed to the receiver.
// It prints, as one JSON line, what happened, the spans recorded with the scope of each, and where
// @opentelemetry/api resolves from the application and from @pay/otel.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@pay/client';
import { openJournal } from '@pay/journal';
import { startSandbox } from '@pay/sandbox';
import { EXAMPLES } from '@pay/schema';
import { createTestWebhook } from '@pay/webhook';
import { webhookHandler } from '@pay/webhook/fetch';

/** The real path `specifier` resolves to from the file `from`, or null when it does not resolve. */
function resolved(from, specifier) {
  try {
    return realpathSync(createRequire(from).resolve(specifier));
  } catch {
    return null;
  }
}

const app = fileURLToPath(import.meta.url);
const apiFromApp = resolved(app, '@opentelemetry/api');
// @pay/otel as the client has it (the application does not depend on it itself).
const otelEntry = resolved(fileURLToPath(import.meta.resolve('@pay/client')), '@pay/otel');
const otelRoot = otelEntry && dirname(dirname(otelEntry));
const otel = apiFromApp ? (await import('./index.mjs')).registerOtel() : undefined;

const merchant = { id: 'm_app', secret: 'sk_test_app' };
const sandbox = await startSandbox({ merchants: [merchant] });
const client = createClient({ baseUrl: sandbox.url, merchantId: merchant.id, secret: merchant.secret });
const journal = await openJournal({ client, handler: () => {} });
let created;
let webhook;
try {
  created = await journal.payins.create({ ...EXAMPLES.createPayin, reference_id: 'order-otel-1' });
  const config = { merchantId: merchant.id, secret: merchant.secret, url: 'https://shop.example/webhooks/pay' };
  const onWebhook = webhookHandler({ ...config, handler: () => {} });
  const payload = { id: created.transaction.id, reference_id: 'order-otel-1', status: 'executed' };
  webhook = await onWebhook(createTestWebhook({ ...config, payload }).request);
} finally {
  await journal.close();
  await sandbox.close();
}
const spans = otel ? otel.spans() : [];
console.log(
  JSON.stringify({
    recording: otel !== undefined,
    payin: created.transaction.status,
    webhook: webhook.status,
    spans: spans.map((s) => ({
      scope: s.instrumentationScope.name,
      version: s.instrumentationScope.version,
      name: s.name,
      id: s.spanContext().spanId,
      parent: s.parentSpanContext?.spanId ?? null,
    })),
    api: {
      fromApp: apiFromApp,
      fromOtel: otelEntry && resolved(otelEntry, '@opentelemetry/api'),
      // Where a package manager links @pay/otel's peer: in the node_modules that holds @pay/otel.
      besideOtel: otelRoot !== null && existsSync(join(otelRoot, '..', '..', '@opentelemetry', 'api')),
    },
  }),
);
await otel?.close();
