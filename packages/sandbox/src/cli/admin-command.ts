// A command that makes one admin call (`status`, `advance`, `reset`, the lists): its options read,
// `--help` answered, the admin client of `--url` made, the call made and its answer printed, or
// its failure printed (exit code 1). Each command says only what is its own: its options, the call
// its arguments stand for, and how the answer is shown.
import type { ParseArgsConfig } from 'node:util';
import { adminClient, type SandboxAdmin } from '../admin-client/client.js';
import { nodeTransport } from '../admin-client/transport-node.js';
import { adminOptions, COMMON_OPTIONS, EXIT, parse, reportFailure, sandboxUrl, type Command, type Io } from './common.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command line as `parse` reads it. */
export type Parsed<O extends Options> = ReturnType<typeof parse<O>>;

/** What a command's arguments stand for: one admin call, and how its answer is printed. */
export interface AdminCall<T> {
  call(admin: SandboxAdmin): Promise<T>;
  print(answer: T, io: Io): void;
}

/** A command of one admin call. */
export interface AdminCommandSpec<O extends Options, T> {
  name: string;
  /** Its `--help` text. */
  help: string;
  /** Its options beyond `--url` and `--help`. */
  options: O;
  /** Whether it takes arguments besides options. */
  positionals?: boolean;
  /**
   * The call the command line stands for.
   *
   * @throws UsageError for arguments it cannot use (exit code 2).
   */
  plan(parsed: Parsed<typeof COMMON_OPTIONS & O>): AdminCall<T>;
}

/** The command that makes the call `spec.plan` gives, against the sandbox of `--url` (or PAY_SANDBOX_URL). */
export function adminCommand<O extends Options, T>(spec: AdminCommandSpec<O, T>): Command {
  return {
    name: spec.name,
    help: spec.help,
    async run(args, io) {
      const parsed = parse(args, { ...COMMON_OPTIONS, ...spec.options }, spec.help, spec.positionals ?? false);
      const common = parsed.values as { help?: boolean; url?: string };
      if (common.help) {
        io.out(spec.help);
        return EXIT.ok;
      }
      const admin = adminClient(sandboxUrl(common.url, io, spec.help), adminOptions(io), nodeTransport);
      const { call, print } = spec.plan(parsed);
      let answer: T;
      try {
        answer = await call(admin);
      } catch (failure) {
        return reportFailure(failure, io);
      }
      print(answer, io);
      return EXIT.ok;
    },
  };
}
