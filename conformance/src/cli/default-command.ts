// `pay-conformance` with no arguments: every mode against the toolkit's own implementations, so a
// clone of the repository proves its own pieces agree with the runner.
import { commandClient } from './client-command.js';
import { commandRun } from './run-command.js';
import { emit } from './emit.js';
import { RUNNER } from './runner.js';
import { runServer } from '../http/server/run.js';
import { runWebhookEndpoint } from '../http/webhook-endpoint/run.js';
import { DEFAULT_TIMEOUT_MS, type RunResult } from '../types.js';

/** Something started on loopback for the run, and stopped after it. */
interface Embedded {
  close(): Promise<void>;
}

/** Starts an embedded implementation, runs a mode against it, reports under `name`, and stops it. */
async function against<E extends Embedded>(
  start: () => Promise<E>,
  run: (e: E) => Promise<RunResult>,
  name: (e: E) => string,
): Promise<0 | 1> {
  const embedded = await start();
  try {
    const result = await run(embedded);
    result.implementation.command = name(embedded);
    return emit(result, {});
  } finally {
    await embedded.close();
  }
}

/**
 * The suite against the reference adapter, webhook-endpoint against an embedded receiver, server
 * against an embedded sandbox (each on loopback, started and stopped here), and client against the
 * reference adapter's SDK (@pay/client); returns the worst exit code.
 */
export async function commandDefault(): Promise<number> {
  const codes = [await commandRun({})];
  process.stdout.write('\n');
  const { startEmbeddedReceiver } = await import('../http/embedded-receiver.js');
  codes.push(
    await against(
      startEmbeddedReceiver,
      (r) =>
        runWebhookEndpoint({
          url: r.url,
          merchantId: r.merchantId,
          secret: r.secret,
          timeoutMs: DEFAULT_TIMEOUT_MS,
          version: RUNNER.version,
        }),
      (r) => `${r.url} (embedded receiver on @pay/webhook)`,
    ),
  );
  process.stdout.write('\n');
  const { startEmbeddedSandbox } = await import('../http/embedded-sandbox.js');
  codes.push(
    await against(
      startEmbeddedSandbox,
      (s) => runServer({ ...s, timeoutMs: DEFAULT_TIMEOUT_MS, version: RUNNER.version }),
      (s) => `${s.baseUrl} (embedded @pay/sandbox)`,
    ),
  );
  process.stdout.write('\n');
  codes.push(await commandClient([]));
  return Math.max(...codes);
}
