// What every command of `pay-sandbox` shares: how it is described and run, its argument parsing
// (usage errors, exit code 2), which sandbox it drives (--url), and how a failed call is printed
// (exit code 1): one line, never a stack trace, never a secret, never a terminal control code.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isSandboxAdminError } from '../admin-client/error.js';
import { checkBaseUrl } from '../base-url.js';
import { didYouMean } from '../nearest.js';
import { printable } from '../printable.js';
import { DEFAULT_SANDBOX_URL } from './usage.js';

/** Exit codes: done, the sandbox refused (or could not be reached), a usage error. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** Where a command writes and what it reads from its environment (a process's, or a test's). */
export interface Io {
  /** Writes a line (or lines) to standard output. */
  out(text: string): void;
  /** Writes a line (or lines) to standard error. */
  err(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
}

/** A command of `pay-sandbox`. */
export interface Command {
  /** How it is called: `payin create`, `status`. */
  name: string;
  /** Its `--help` text, which starts with its usage line. */
  help: string;
  /** Runs it with the arguments after its name; resolves with the exit code. */
  run(args: readonly string[], io: Io): Promise<number>;
}

/**
 * A command line that cannot be run: printed as one line saying what is wrong and which `--help`
 * shows the usage it breaks, exit code 2.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage text of the command it breaks (its first line names the command). */
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }

  /** The command whose `--help` shows the usage: `pay-sandbox payin create`, `pay-sandbox`. */
  get command(): string {
    return /^Usage: (pay-sandbox(?: [a-z]+)*)/.exec(this.usage)?.[1] ?? 'pay-sandbox';
  }
}

/** The one line a usage error prints: what is wrong, and where the usage is. */
export function usageLine(error: UsageError): string {
  return `pay-sandbox: ${printable(error.message)} (see ${error.command} --help)`;
}

/** Something the command was given that it cannot use (a state or seed file): said in one line, exit code 1. */
export class Refusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Refusal';
  }
}

/** The options every command takes. */
export const COMMON_OPTIONS = {
  url: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * parseArgs, strict, its errors as UsageErrors. A free-form argument is never repeated in a
 * message (one typed in the wrong place may be a secret): only option names are, an unknown one
 * with the known option nearest to it (`--amont`: did you mean --amount?).
 */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  help: string,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: boolean; tokens: true }>> {
  const { args: prepared, negatives } = withNegativeValues(args, options);
  let parsed;
  try {
    parsed = parseArgs({ args: prepared, options, strict: true, allowPositionals, tokens: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError('unexpected argument: this command takes options only', help);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /'(-{1,2}[A-Za-z0-9-]{1,40})/.exec((error as Error).message)?.[1];
      const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
      const what = unknown ? 'unknown option' : 'option needs a value, or takes none';
      const known = Object.keys(options).map((name) => `--${name}`);
      const guess = option !== undefined && unknown ? didYouMean(option, known) : '';
      throw new UsageError(option === undefined ? what : `${what}: ${option}${guess}`, help);
    }
    throw new UsageError('the arguments cannot be read', help);
  }
  // The negative numbers set aside as arguments, back in their places.
  const restore = (value: string) => negatives.get(value) ?? value;
  for (const token of parsed.tokens) if (token.kind === 'positional') token.value = restore(token.value);
  return { ...parsed, positionals: parsed.positionals.map(restore) };
}

// A negative number (`-3`, `-0.5`, `-5m`): never an option name. After an option that takes a
// value it is that value (`--amount -3`), which then meets that value's own rules; anywhere else it
// is an argument (`advance -5m`), for the command to say what is wrong with it, rather than an
// unknown option `-5`.
const NEGATIVE_NUMBER = /^-[0-9.]/;

/**
 * The arguments with `--option -3` written `--option=-3`, for options that take a value, and each
 * other negative number replaced by a stand-in parseArgs takes for an argument (a NUL, which no
 * real argument holds): `negatives` maps each stand-in back to its number.
 */
function withNegativeValues(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): { args: string[]; negatives: Map<string, string> } {
  const out: string[] = [];
  const negatives = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && next !== undefined && NEGATIVE_NUMBER.test(next) && options[name]?.type === 'string') {
      out.push(`${arg}=${next}`);
      i++;
    } else if (NEGATIVE_NUMBER.test(arg)) {
      const standIn = `\0${negatives.size}`;
      negatives.set(standIn, arg);
      out.push(standIn);
    } else out.push(arg);
  }
  return { args: out, negatives };
}

/** The sandbox's base URL: `--url`, else PAY_SANDBOX_URL, else the default. @throws UsageError */
export function sandboxUrl(given: string | undefined, io: Io, help: string): string {
  const fromEnv = io.env['PAY_SANDBOX_URL'] || undefined;
  try {
    if (given !== undefined) return checkBaseUrl(given, '--url');
    return checkBaseUrl(fromEnv ?? DEFAULT_SANDBOX_URL, 'PAY_SANDBOX_URL');
  } catch (error) {
    throw new UsageError((error as Error).message, help);
  }
}

/** The admin client's options from the environment: the admin token, for a sandbox on another machine. */
export function adminOptions(io: Io): { adminToken?: string } {
  const token = io.env['PAY_SANDBOX_ADMIN_TOKEN'];
  return token ? { adminToken: token } : {};
}

export { printable } from '../printable.js';

/** A refusal, as the sandbox's error body says it (an admin call's or a service endpoint's). */
export interface RefusalToPrint {
  status: number | null;
  code: string;
  /** The sandbox's own sentence. */
  reason: string;
  hint: string | undefined;
  errors: readonly { path: string; message: string }[];
}

/** Prints the sandbox's refusal (status, code, message, hint, field errors); returns exit code 1. */
export function reportRefusal(refusal: RefusalToPrint, io: Io): number {
  const lines = [`pay-sandbox: the sandbox refused: ${refusal.status} ${printable(refusal.code)}: ${printable(refusal.reason)}`];
  if (refusal.hint !== undefined) lines.push(`  hint: ${printable(refusal.hint)}`);
  for (const e of refusal.errors) lines.push(`  ${printable(e.path || '(body)')}: ${printable(e.message)}`);
  io.err(lines.join('\n'));
  return EXIT.refused;
}

/** Prints why a call got no usable answer (the URL named); returns exit code 1. */
export function reportNoAnswer(message: string, io: Io): number {
  io.err(`pay-sandbox: ${printable(message)}`);
  return EXIT.refused;
}

/**
 * Prints a failed admin call and returns exit code 1: the sandbox's refusal, or why there was no
 * usable answer. Anything that is not a SandboxAdminError is a bug of this program and is rethrown.
 */
export function reportFailure(error: unknown, io: Io): number {
  if (!isSandboxAdminError(error)) throw error;
  if (error.status === null || error.code === 'invalid_response') return reportNoAnswer(error.message, io);
  const { status, code, hint, errors } = error;
  return reportRefusal({ status, code, reason: error.reason ?? error.message, hint, errors }, io);
}
