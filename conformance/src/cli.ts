#!/usr/bin/env node
// pay-conformance: which command runs, and the exit code when the harness itself fails.
//   0  every required case passed
//   1  some case failed (or the implementation could not be run to the end)
//   2  the harness itself could not run (bad arguments, unreadable vectors, a command that cannot start)
// The commands live in cli/.
import { commandClient } from './cli/client-command.js';
import { commandDefault } from './cli/default-command.js';
import { commandServer, commandWebhookEndpoint } from './cli/http-commands.js';
import { UsageError } from './cli/options.js';
import { commandReport } from './cli/report-command.js';
import { commandRun, parseRun } from './cli/run-command.js';
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

/** Runs the command `argv` names; returns the exit code (2, with a message, when the harness fails). */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case undefined:
        return await commandDefault();
      case 'run':
        return await commandRun(parseRun(rest));
      case 'adapter':
        return await commandAdapter(rest);
      case 'webhook-endpoint':
        return await commandWebhookEndpoint(rest);
      case 'server':
        return await commandServer(rest);
      case 'client':
        return await commandClient(rest);
      case 'report':
        return commandReport(rest);
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return 0;
      case '--version':
        process.stdout.write(`${RUNNER.version}\n`);
        return 0;
      default:
        if (cmd.startsWith('-')) return await commandRun(parseRun(argv));
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
