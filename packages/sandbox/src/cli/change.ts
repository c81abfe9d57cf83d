// The commands that change a running sandbox through its admin API: `status` (move a
// transaction), `advance` (move the schedule clock) and `reset`.
import { sandboxAdmin } from '../admin-client/client.js';
import {
  adminOptions,
  COMMON_OPTIONS,
  EXIT,
  parse,
  printable,
  reportFailure,
  sandboxUrl,
  UsageError,
  type Command,
  type Io,
} from './common.js';
import { parseDuration } from './duration.js';
import { DEFAULT_SANDBOX_URL } from './usage.js';

const URL_LINE = `  --url URL              the sandbox (default ${DEFAULT_SANDBOX_URL}, or PAY_SANDBOX_URL)`;

const STATUS_HELP = `Usage: pay-sandbox status KIND ID STATUS [--error-code CODE] [--error-message TEXT] [--json]

Moves a transaction to a status through the admin API; the sandbox sends one webhook for it.
KIND is payin or payout; STATUS is executed, failed or expired (final), or any other lower-case
word but new, to see how a client copes with a status it does not know.

Options:
  --error-code CODE      with failed: error_code (default declined)
  --error-message TEXT   with failed: error_message (default "The transaction was declined.")
  --json                 print the transaction's JSON as the sandbox answered it
${URL_LINE}
  --help                 this text`;

/** `pay-sandbox status KIND ID STATUS`. */
export const statusCommand: Command = {
  name: 'status',
  help: STATUS_HELP,
  async run(args, io) {
    const { values, positionals } = parse(
      args,
      { ...COMMON_OPTIONS, 'error-code': { type: 'string' }, 'error-message': { type: 'string' }, json: { type: 'boolean' } },
      STATUS_HELP,
      true,
    );
    if (values.help) return help(io, STATUS_HELP);
    const admin = sandboxAdmin(sandboxUrl(values.url, io, STATUS_HELP), adminOptions(io));
    if (positionals.length !== 3)
      throw new UsageError(`status takes three arguments, KIND ID STATUS; got ${positionals.length}`, STATUS_HELP);
    const [kind, id, status] = positionals as [string, string, string];
    if (kind !== 'payin' && kind !== 'payout') throw new UsageError('KIND must be payin or payout', STATUS_HELP);
    const error = {
      ...(values['error-code'] === undefined ? {} : { code: values['error-code'] }),
      ...(values['error-message'] === undefined ? {} : { message: values['error-message'] }),
    };
    try {
      const record = await admin.setStatus(kind, id, status, Object.keys(error).length === 0 ? undefined : error);
      if (values.json) io.out(JSON.stringify(record, null, 2));
      else
        io.out(
          `${kind} ${printable(record.id)} is now ${printable(record.status)}${record.error_code === null ? '' : ` (${printable(record.error_code)}: ${printable(record.error_message)})`}`,
        );
      return EXIT.ok;
    } catch (failure) {
      return reportFailure(failure, io);
    }
  },
};

const ADVANCE_HELP = `Usage: pay-sandbox advance DURATION [--json]

Moves the schedule clock forward and runs everything that falls due on the way, in order (webhook
retries, expiry, payout execution); prints the new now once it has all run. DURATION is seconds
(90) or amounts with units s, m, h, d (90s, 15m, 1h30m, 1.5h, 2d).

Options:
  --json                 print the sandbox's answer, {"now": ...}
${URL_LINE}
  --help                 this text`;

/** `pay-sandbox advance DURATION`. */
export const advanceCommand: Command = {
  name: 'advance',
  help: ADVANCE_HELP,
  async run(args, io) {
    const { values, positionals } = parse(args, { ...COMMON_OPTIONS, json: { type: 'boolean' } }, ADVANCE_HELP, true);
    if (values.help) return help(io, ADVANCE_HELP);
    const admin = sandboxAdmin(sandboxUrl(values.url, io, ADVANCE_HELP), adminOptions(io));
    if (positionals.length !== 1) throw new UsageError(`advance takes one argument, DURATION; got ${positionals.length}`, ADVANCE_HELP);
    const seconds = parseDuration(positionals[0]!);
    if (seconds === undefined)
      throw new UsageError('DURATION must be seconds (90) or amounts with units s, m, h, d (15m, 1h30m)', ADVANCE_HELP);
    try {
      const { now } = await admin.advance(seconds);
      io.out(values.json ? JSON.stringify({ now }) : `clock advanced ${seconds} s; now ${printable(now)}`);
      return EXIT.ok;
    } catch (failure) {
      return reportFailure(failure, io);
    }
  },
};

const RESET_HELP = `Usage: pay-sandbox reset

Forgets every transaction, webhook delivery, fault and logged request, and puts the schedule clock
back on wall time. Merchants stay.

Options:
${URL_LINE}
  --help                 this text`;

/** `pay-sandbox reset`. */
export const resetCommand: Command = {
  name: 'reset',
  help: RESET_HELP,
  async run(args, io) {
    const { values } = parse(args, COMMON_OPTIONS, RESET_HELP);
    if (values.help) return help(io, RESET_HELP);
    const admin = sandboxAdmin(sandboxUrl(values.url, io, RESET_HELP), adminOptions(io));
    try {
      await admin.reset();
      io.out('sandbox reset: no transactions, deliveries, faults or logged requests; the clock is on wall time');
      return EXIT.ok;
    } catch (failure) {
      return reportFailure(failure, io);
    }
  },
};

function help(io: Io, text: string): number {
  io.out(text);
  return EXIT.ok;
}
