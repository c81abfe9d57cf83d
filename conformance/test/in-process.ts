// `run`, `client`, `server` and `webhook-endpoint` made in the test's own process, by the functions
// the CLI calls (its option parsing, the run, the exit code, the JSON and human reports), with the
// implementation still a real child process or a real server on loopback. For tests that run one
// mode many times over (a variant per mistake): a CLI process per run cost a Node start and the
// runner's modules each time, half of client-broken.test.ts's CPU. What only the CLI process does
// (report files, streams, exit codes, ending with its children) stays tested by real spawns
// (runCli), in cli.test.ts and in each file that runs a mode this way.
import { clientOptionsOf, parseClient } from '../src/cli/client-command.js';
import { exitCodeOf } from '../src/cli/exit-code.js';
import { serverOf, webhookEndpointOf } from '../src/cli/http-commands.js';
import type { Reports } from '../src/cli/options.js';
import { parseRun, runOptionsOf } from '../src/cli/run-command.js';
import { RUNNER } from '../src/cli/runner.js';
import { runSuite } from '../src/harness/run.js';
import { runClient } from '../src/http/client/run.js';
import { runServer } from '../src/http/server/run.js';
import { runWebhookEndpoint } from '../src/http/webhook-endpoint/run.js';
import { formatHuman, PLAIN } from '../src/report/human.js';
import { toJsonReport } from '../src/report/json.js';
import type { RunResult } from '../src/types.js';
import type { CliRun, JsonReport } from './helpers.js';

/** A run made here: its exit code and human report as the CLI gives them off a terminal, and its JSON report. */
export interface InProcessRun {
  run: CliRun;
  report: JsonReport;
}

/**
 * `pay-conformance <mode> …` (args as the CLI takes them; run and client with --impl: the bundled
 * reference adapter is started from dist/ by the real CLI, runCli), run here. Report options are
 * refused: the JSON report is returned, the human one is the run's stdout.
 */
export async function runInProcess(args: string[]): Promise<InProcessRun> {
  const [mode, ...rest] = args;
  const started = Date.now();
  let result: RunResult;
  let strict = false;
  if (mode === 'run') {
    const a = parseRun(rest);
    refuseReports(a, true);
    result = await runSuite(runOptionsOf(a));
    strict = a.strict ?? false;
  } else if (mode === 'client') {
    const values = parseClient(rest);
    refuseReports(values, true);
    result = await runClient(clientOptionsOf(values));
    strict = values.strict ?? false;
  } else if (mode === 'server') {
    const { values, options } = serverOf(rest);
    refuseReports(values, false);
    result = await runServer(options);
  } else if (mode === 'webhook-endpoint') {
    const { values, options } = webhookEndpointOf(rest);
    refuseReports(values, false);
    result = await runWebhookEndpoint(options);
  } else {
    throw new Error(`runInProcess runs run, client, server or webhook-endpoint, not ${mode}`);
  }
  const code = exitCodeOf(result, { strict });
  const report = JSON.parse(toJsonReport(result, { runner: RUNNER, exit_code: code })) as JsonReport;
  return { run: { code, stdout: formatHuman(result, PLAIN), stderr: '', ms: Date.now() - started }, report };
}

/** Reports go to files only from the CLI (emit): here a test reads them from the result. */
function refuseReports(a: Reports & { impl?: string | undefined }, needsImpl: boolean): void {
  if (needsImpl && a.impl === undefined) throw new Error('runInProcess needs --impl: the reference adapter is started by the built CLI');
  for (const option of ['json', 'junit', 'tap', 'report'] as const)
    if (a[option] !== undefined) throw new Error(`runInProcess writes no --${option}: read the report it returns`);
}
