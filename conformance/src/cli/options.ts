// What the commands' options share: the usage error (exit 2), the report options every mode takes,
// and the checks of numbers, lists and URLs given on the command line.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The command line is wrong: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

/** The report options every mode takes. */
export interface Reports {
  json?: string;
  junit?: string;
  tap?: boolean;
  /** a directory for summary.json, index.html and badge.svg */
  report?: string;
  /** the implementation's name in the report directory, when it gives none in hello */
  name?: string;
}

/** The options of Reports, and the time limit, as node:util's parseArgs declares them. */
export const REPORT_OPTIONS = {
  json: { type: 'string' },
  junit: { type: 'string' },
  tap: { type: 'boolean' },
  report: { type: 'string' },
  name: { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

/** Options as node:util's parseArgs declares them. */
type Options = NonNullable<ParseArgsConfig['options']>;
/** The values parseArgs gives for `O`. */
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: O }>>['values'];

/** A command's options parsed (node:util's parseArgs, strict), refusing positional arguments: no command takes any. */
export function parseOptions<const O extends Options>(args: string[], options: O): Parsed<O> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  return values;
}

/** A whole number given as `name` (zero only when `allowZero`), or `dflt` when absent. */
export function positiveInt(v: string | undefined, name: string, dflt: number, allowZero = false): number {
  if (v === undefined) return dflt;
  if (!/^[0-9]+$/.test(v) || (!allowZero && Number(v) === 0))
    throw new UsageError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} whole number`);
  return Number(v);
}

/** A repeatable, comma-separated option as one list, blanks dropped. */
export const list = (vs: string[] | undefined): string[] =>
  (vs ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/** An absolute http:// or https:// URL given as `name`, as given. */
export function absoluteUrl(v: string, name: string): string {
  if (!/^https?:\/\/[^/]/.test(v)) throw new UsageError(`${name} must be an absolute http:// or https:// URL`);
  try {
    new URL(v);
  } catch {
    throw new UsageError(`${name} is not a URL: ${v}`);
  }
  return v;
}
