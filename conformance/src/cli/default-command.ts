// `pay-conformance` with no arguments: every mode against the toolkit's own implementations, so a
// clone of the repository proves its own pieces agree with the runner.
import { commandRun } from './run-command.js';
import { emit } from './emit.js';
import { RUNNER } from './runner.js';
import { runServer } from '../http/server/run.js';
import { runWebhookEndpoint } from '../http/webhook-endpoint/run.js';
import { DEFAULT_TIMEOUT_MS } from '../types.js';

/**
 * The suite against the reference adapter, webhook-endpoint against an embedded receiver, server
 * against an embedded sandbox (each on loopback, started and stopped here); returns the worst exit code.
 */
export async function commandDefault(): Promise<number> {
  const codes = [await commandRun({})];
  process.stdout.write('\n');
  const { startEmbeddedReceiver } = await import('../http/embedded-receiver.js');
  const receiver = await startEmbeddedReceiver();
  try {
    const run = await runWebhookEndpoint({ url: receiver.url, merchantId: receiver.merchantId, secret: receiver.secret, timeoutMs: DEFAULT_TIMEOUT_MS, version: RUNNER.version });
    run.implementation.command = `${receiver.url} (embedded receiver on @pay/webhook)`;
    codes.push(emit(run, {}));
  } finally {
    await receiver.close();
  }
  process.stdout.write('\n');
  const { startEmbeddedSandbox } = await import('../http/embedded-sandbox.js');
  const sandbox = await startEmbeddedSandbox();
  try {
    const run = await runServer({ ...sandbox, timeoutMs: DEFAULT_TIMEOUT_MS, version: RUNNER.version });
    run.implementation.command = `${sandbox.baseUrl} (embedded @pay/sandbox)`;
    codes.push(emit(run, {}));
  } finally {
    await sandbox.close();
  }
  return Math.max(...codes);
}
