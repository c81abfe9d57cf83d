// `pay-sandbox`'s command line, run against an `Io`: the process (cli.ts) or a test's. With no
// command (nothing, or options only) or `serve`, it starts a sandbox exactly as it always has; a
// command word runs that command against a running sandbox. Every error ends here as an exit code
// and one line: 1 the sandbox refused, could not be reached or could not start (its port in use),
// 2 a usage error (what is wrong, and which --help shows the usage). Never a stack trace.
import { EXIT, printable, Refusal, UsageError, usageLine, type Command, type Io } from './common.js';
import { didYouMean } from '../nearest.js';
import { USAGE } from './usage.js';

// Each command's module is loaded only when it runs: a command is a short-lived process, and the
// server's modules (or @pay/sign's) would double the time a quick `pay-sandbox transactions` takes.
type Load = () => Promise<Command>;
const COMMANDS: Readonly<Record<string, Load>> = {
  status: async () => (await import('./change.js')).statusCommand,
  advance: async () => (await import('./change.js')).advanceCommand,
  reset: async () => (await import('./change.js')).resetCommand,
  transactions: async () => (await import('./lists.js')).transactionsCommand,
  deliveries: async () => (await import('./lists.js')).deliveriesCommand,
  requests: async () => (await import('./lists.js')).requestsCommand,
};
// Commands of two words: `payin create`, `payout create`.
const GROUPS: Readonly<Record<string, Load>> = {
  payin: async () => (await import('./create.js')).createCommand('payin'),
  payout: async () => (await import('./create.js')).createCommand('payout'),
};
const has = (table: object, word: string) => Object.hasOwn(table, word);

/** A word typed as a command, repeated in a message only when it looks like one (it may be a misplaced secret). */
const shown = (word: string) => (/^[a-z][a-z0-9-]{0,30}$/i.test(word) ? ` ${word}` : '');
/** The command nearest to a mistyped one: ` (did you mean transactions?)`, or ''. */
const nearestCommand = (word: string) => didYouMean(word, [...Object.keys(COMMANDS), ...Object.keys(GROUPS), 'serve', 'help']);

/** Runs a command line; resolves with the exit code, or undefined when a sandbox was started (it keeps running). */
async function main(argv: readonly string[], io: Io): Promise<number | undefined> {
  const [word, ...rest] = argv;
  // The usage alone needs no server.
  if (argv.length === 1 && (word === '--help' || word === '-h')) return help([], io);
  if (word === undefined || word.startsWith('-') || word === 'serve') {
    const { serve } = await import('./serve.js');
    return serve(word === 'serve' ? rest : argv, io);
  }
  if (word === 'help') return help(rest, io);
  if (has(COMMANDS, word)) return (await COMMANDS[word]!()).run(rest, io);
  if (has(GROUPS, word)) {
    const command = await GROUPS[word]!();
    const [sub, ...args] = rest;
    if (sub === '--help' || sub === '-h') return help([word], io);
    if (sub !== 'create')
      throw new UsageError(sub === undefined ? `${word} needs a command: create` : `unknown command: ${word}${shown(sub)}`, command.help);
    return command.run(args, io);
  }
  throw new UsageError(`unknown command${shown(word)}${nearestCommand(word)}`, USAGE);
}

/** `pay-sandbox help [COMMAND]`. */
async function help([word, sub]: readonly string[], io: Io): Promise<number> {
  const known = word !== undefined && (has(COMMANDS, word) || (has(GROUPS, word) && (sub === undefined || sub === 'create')));
  if (word !== undefined && !known) throw new UsageError(`no command${shown(word)}${sub === undefined ? '' : shown(sub)}`, USAGE);
  const command = word === undefined ? undefined : await (COMMANDS[word] ?? GROUPS[word])!();
  io.out(command?.help ?? USAGE);
  return EXIT.ok;
}

/**
 * Runs a `pay-sandbox` command line; resolves with its exit code, or undefined when it started a
 * sandbox (which keeps running). Never rejects: every error is printed on `io.err` as one line.
 */
export async function runCommandLine(argv: readonly string[], io: Io): Promise<number | undefined> {
  try {
    return await main(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(usageLine(error));
      return EXIT.usage;
    }
    if (error instanceof Refusal) {
      io.err(`pay-sandbox: ${printable(error.message)}`);
      return EXIT.refused;
    }
    // A bug of this program: said in one line, without a stack trace or anything a value held.
    io.err(`pay-sandbox: internal error (${error instanceof Error ? error.name : typeof error}); please report it`);
    return EXIT.refused;
  }
}
