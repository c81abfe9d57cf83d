// The commands that change a running sandbox through its admin API: `status` (move a
// transaction), `advance` (move the schedule clock) and `reset`.
import { FIRST_STATUS } from '@pay/schema/statuses';
import { DEFAULT_DECLINE } from '../decline.js';
import { SETTABLE_STATUSES, statusProblem } from '../settable-status.js';
import { adminCommand } from './admin-command.js';
import { printable, UsageError } from './common.js';
import { parseDuration } from './duration.js';
import { URL_LINE } from './usage.js';

const STATUS_HELP = `Usage: pay-sandbox status KIND ID STATUS [--error-code CODE] [--error-message TEXT] [--unknown-status] [--json]

Moves a transaction to a status through the admin API; the sandbox sends one webhook for it.
KIND is payin or payout; STATUS is ${SETTABLE_STATUSES} (final). Another status is
refused as a typo unless --unknown-status asks for it.

Options:
  --error-code CODE      with failed: error_code (default ${DEFAULT_DECLINE.code})
  --error-message TEXT   with failed: error_message (default "${DEFAULT_DECLINE.message}")
  --unknown-status       send a STATUS clients do not know, on purpose (any lower-case word but
                         ${FIRST_STATUS}), to see how a client copes with one
  --json                 print the transaction's JSON as the sandbox answered it
${URL_LINE}
  --help                 this text`;

/** `pay-sandbox status KIND ID STATUS`. */
export const statusCommand = adminCommand({
  name: 'status',
  help: STATUS_HELP,
  options: {
    'error-code': { type: 'string' },
    'error-message': { type: 'string' },
    'unknown-status': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  positionals: true,
  plan({ values, positionals }) {
    if (positionals.length !== 3)
      throw new UsageError(`status takes three arguments, KIND ID STATUS; got ${positionals.length}`, STATUS_HELP);
    const [kind, id, status] = positionals as [string, string, string];
    if (kind !== 'payin' && kind !== 'payout') throw new UsageError('KIND must be payin or payout', STATUS_HELP);
    // A typo is a usage error here, before any call: the sandbox would refuse it too, but only
    // this command knows its own option for a status on purpose.
    const onPurpose = values['unknown-status'] === true;
    const problem = statusProblem(status, onPurpose, '--unknown-status');
    if (problem !== undefined) throw new UsageError(`STATUS ${problem}`, STATUS_HELP);
    const error = {
      ...(values['error-code'] === undefined ? {} : { code: values['error-code'] }),
      ...(values['error-message'] === undefined ? {} : { message: values['error-message'] }),
    };
    return {
      call: (admin) =>
        admin.setStatus(kind, id, status, Object.keys(error).length === 0 ? undefined : error, onPurpose ? { unknownStatus: true } : {}),
      print: (record, io) =>
        io.out(
          values.json
            ? JSON.stringify(record, null, 2)
            : `${kind} ${printable(record.id)} is now ${printable(record.status)}${record.error_code === null ? '' : ` (${printable(record.error_code)}: ${printable(record.error_message)})`}`,
        ),
    };
  },
});

const ADVANCE_HELP = `Usage: pay-sandbox advance DURATION [--json]

Moves the schedule clock forward and runs everything that falls due on the way, in order (webhook
retries, expiry, payout execution); prints the new now once it has all run. DURATION is seconds
(90) or amounts with units s, m, h, d (90s, 15m, 1h30m, 1.5h, 2d); never negative: time does not
go backwards in the sandbox.

Options:
  --json                 print the sandbox's answer, {"now": ...}
${URL_LINE}
  --help                 this text`;

/** `pay-sandbox advance DURATION`. */
export const advanceCommand = adminCommand({
  name: 'advance',
  help: ADVANCE_HELP,
  options: { json: { type: 'boolean' } },
  positionals: true,
  plan({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError(`advance takes one argument, DURATION; got ${positionals.length}`, ADVANCE_HELP);
    const text = positionals[0]!;
    const seconds = parseDuration(text);
    if (seconds === undefined && text.startsWith('-') && parseDuration(text.slice(1)) !== undefined)
      throw new UsageError(
        'DURATION cannot be negative: time does not go backwards in the sandbox (pay-sandbox reset puts the clock back on wall time)',
        ADVANCE_HELP,
      );
    if (seconds === undefined)
      throw new UsageError('DURATION must be seconds (90) or amounts with units s, m, h, d (15m, 1h30m)', ADVANCE_HELP);
    return {
      call: (admin) => admin.advance(seconds),
      print: ({ now }, io) => io.out(values.json ? JSON.stringify({ now }) : `clock advanced ${seconds} s; now ${printable(now)}`),
    };
  },
});

const RESET_HELP = `Usage: pay-sandbox reset

Forgets every transaction, webhook delivery, fault and logged request, and puts the schedule clock
back on wall time. Merchants stay.

Options:
${URL_LINE}
  --help                 this text`;

/** `pay-sandbox reset`. */
export const resetCommand = adminCommand({
  name: 'reset',
  help: RESET_HELP,
  options: {},
  plan: () => ({
    call: (admin) => admin.reset(),
    print: (_answer, io) => io.out('sandbox reset: no transactions, deliveries, faults or logged requests; the clock is on wall time'),
  }),
});
