#!/usr/bin/env node
// pay-conformance: which command runs, and the exit code when the harness itself fails.
//   0  every required case passed
//   1  some case failed (or the implementation could not be run to the end)
//   2  the harness itself could not run (bad arguments, unreadable vectors, a command that cannot start)
// The commands live in cli/, each loaded only when it runs: client, server and the default command
// load the sandbox and the SDK stack (about 0.25 s of CPU at every start), which `run`, `report`
// and `adapter` (the reference adapter, started once per child) never use.
import { UsageError } from './cli/options.js';
import { RUNNER } from './cli/runner.js';
import { USAGE } from './cli/usage.js';
import { HarnessError, VectorError } from './errors.js';

/** `adapter`: the bundled reference implementation as a protocol child on stdin/stdout. */
async function commandAdapter(args: string[]): Promise<number> {
  if (args.length) throw new UsageError(`adapter takes no arguments (got ${args[0]})`);
  const { serve } = await import('./harness/adapter.js');
  await serve();
  process.stdin.destroy();
  return 0;
}

/** `run` (also what options without a command mean): the suite against an implementation. */
async function runCommand(args: string[]): Promise<number> {
  const { commandRun, parseRun } = await import('./cli/run-command.js');
  return commandRun(parseRun(args));
}

/** Runs the command `argv` names; returns the exit code (2, with a message, when the harness fails). */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case undefined:
        return await (await import('./cli/default-command.js')).commandDefault();
      case 'run':
        return await runCommand(rest);
      case 'adapter':
        return await commandAdapter(rest);
      case 'webhook-endpoint':
        return await (await import('./cli/http-commands.js')).commandWebhookEndpoint(rest);
      case 'server':
        return await (await import('./cli/http-commands.js')).commandServer(rest);
      case 'client':
        return await (await import('./cli/client-command.js')).commandClient(rest);
      case 'report':
        return (await import('./cli/report-command.js')).commandReport(rest);
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return 0;
      case '--version':
        process.stdout.write(`${RUNNER.version}\n`);
        return 0;
      default:
        if (cmd.startsWith('-')) return await runCommand(argv);
        throw new UsageError(`unknown command: ${cmd}`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`pay-conformance: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof VectorError || e instanceof HarnessError) {
      process.stderr.write(`pay-conformance: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`pay-conformance: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`pay-conformance: ${String(e)}\n`);
    process.exitCode = 2;
  },
);
