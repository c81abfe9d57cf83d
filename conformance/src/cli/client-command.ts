// `pay-conformance client`: an SDK driven through the harness protocol's client commands against
// the service the runner plays on loopback (see src/http/client/); its options, and the reports.
import { emit } from './emit.js';
import { UsageError, list, parseOptions, positiveInt } from './options.js';
import { REFERENCE, RUNNER, referenceArgv } from './runner.js';
import { splitCommandLine } from '../harness/command-line.js';
import { DEFAULT_MAX_RESTARTS } from '../harness/run.js';
import { runClient, type ClientRunOptions } from '../http/client/run.js';
import { cardNumberOf } from '../http/redact.js';
import { TEST_CARD } from '../http/server/bodies.js';
import { DEFAULT_START_TIMEOUT_MS } from '../types.js';

/** Parses the arguments of `client`. */
export function parseClient(args: string[]) {
  return parseOptions(args, {
    impl: { type: 'string' },
    id: { type: 'string', multiple: true },
    json: { type: 'string' },
    junit: { type: 'string' },
    tap: { type: 'boolean' },
    report: { type: 'string' },
    name: { type: 'string' },
    strict: { type: 'boolean' },
    'max-restarts': { type: 'string' },
    'start-timeout-ms': { type: 'string' },
  });
}

/** What `client` runs: the SDK's adapter (default: the reference adapter), the cases chosen, the limits. */
export function clientOptionsOf(values: ReturnType<typeof parseClient>): ClientRunOptions {
  let argv: string[];
  try {
    argv = values.impl === undefined ? referenceArgv() : splitCommandLine(values.impl);
  } catch (e) {
    throw new UsageError(`--impl: ${(e as Error).message}`);
  }
  return {
    argv,
    command: values.impl ?? REFERENCE,
    version: RUNNER.version,
    startTimeoutMs: positiveInt(values['start-timeout-ms'], '--start-timeout-ms', DEFAULT_START_TIMEOUT_MS),
    maxRestarts: positiveInt(values['max-restarts'], '--max-restarts', DEFAULT_MAX_RESTARTS, true),
    ids: list(values.id),
  };
}

/** Runs the client cases against an SDK's adapter (default: the reference adapter, on @pay/client); returns the exit code. */
export async function commandClient(args: string[]): Promise<number> {
  const values = parseClient(args);
  const result = await runClient(clientOptionsOf(values));
  // Each service's secret is made and masked inside the run; the card it pushes is known here.
  return emit(result, values, values.strict ?? false, cardNumberOf(TEST_CARD.pan));
}
