// `pay-sandbox payin create` and `pay-sandbox payout create`: a valid body, changed as told, signed
// as a merchant over the exact URL and bytes sent (x-signature, @pay/sign), POSTed to the sandbox;
// the answer printed (id, status, next_action.url), or the refusal with the sandbox's hint.
import type { PayinCreateResponse } from '@pay/schema';
import { signRequest } from '@pay/sign';
import { readErrorAnswer } from '../admin-client/error-answer.js';
import { nodeTransport } from '../admin-client/transport-node.js';
import { DEMO_MERCHANT } from '../merchants.js';
import { describeFailure } from '../failure.js';
import { formatAmount } from '../format.js';
import { defaultPayinBody, defaultPayoutBody, DEFAULT_WEBHOOK_URL, setPath, unsetPath, type Body } from './body.js';
import {
  COMMON_OPTIONS,
  EXIT,
  parse,
  printable,
  reportNoAnswer,
  reportRefusal,
  sandboxUrl,
  UsageError,
  type Command,
  type Io,
} from './common.js';
import { URL_LINE } from './usage.js';

/** The longest wait for the sandbox's answer to a create. */
const CREATE_TIMEOUT_MS = 60_000;

// An id as a header can carry it: visible ASCII. What the sandbox accepts is for it to say.
const MERCHANT_ID = /^[!-~]{1,64}$/;

type Kind = 'payin' | 'payout';

function help(kind: Kind): string {
  const payin = kind === 'payin';
  return `Usage: pay-sandbox ${kind} create [options]

Creates a ${kind} (POST /v2/merchants/${kind}s/) with a valid body, signs it with x-signature over
the exact URL and bytes sent, and prints the sandbox's answer: the id, the status and
next_action.url (${payin ? 'the hosted payment page, or with --method card the card push address' : 'the hosted page'}).
A refusal is printed with its status, error code, message, hint and field errors (exit code 1).

Options:
  --merchant ID:SECRET   who signs (default: PAY_SANDBOX_MERCHANT, else the demo merchant
                         ${DEMO_MERCHANT.id}); everything after the first colon is the secret, never printed
  --amount DECIMAL       payment.amount (default 10.50), sent as a JSON number when one holds it exactly
  --currency CODE        payment.currency (default EUR)
  --reference REF        reference_id (default: none)
${payin ? '  --method METHOD        method: card gives a card push address (default: none, the hosted page)\n' : ''}  --webhook-url URL      webhook_url (default ${DEFAULT_WEBHOOK_URL}, where nothing listens)
  --set PATH=VALUE       set a field to a string; PATH is dotted: --set customer.email=a@b.example
                         (repeatable, applied in order after the options above)
  --set-json PATH=JSON   set a field to a JSON value: --set-json payment.amount=12.5 (repeatable)
  --unset PATH           remove a field, to see the sandbox refuse the body (repeatable)
  --dry-run              print the body that would be sent, and send nothing
  --json                 print the sandbox's JSON answer as it came
${URL_LINE}
  --help                 this text

The default body: ${payin ? 'a customer (Jane Doe, jane@shop.example, a Toronto address, phone and date\nof birth), browser_data, redirect_urls to https://shop.example/ok and /fail' : 'a customer (Jane Doe, jane@shop.example, a phone)'}; see it with --dry-run.`;
}

const OPTIONS = {
  ...COMMON_OPTIONS,
  merchant: { type: 'string' },
  amount: { type: 'string' },
  currency: { type: 'string' },
  reference: { type: 'string' },
  method: { type: 'string' },
  'webhook-url': { type: 'string' },
  set: { type: 'string', multiple: true },
  'set-json': { type: 'string', multiple: true },
  unset: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** The command `pay-sandbox <kind> create`. */
export function createCommand(kind: Kind): Command {
  const text = help(kind);
  return { name: `${kind} create`, help: text, run: (args, io) => create(kind, text, args, io) };
}

async function create(kind: Kind, help: string, args: readonly string[], io: Io): Promise<number> {
  const { values, tokens } = parse(args, OPTIONS, help);
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  if (kind === 'payout' && values.method !== undefined)
    throw new UsageError('--method applies to payins only: a payout has no method', help);
  const base = sandboxUrl(values.url, io, help);
  const merchant = signer(values.merchant, io, help);
  const body = kind === 'payin' ? defaultPayinBody() : defaultPayoutBody();
  const edit = (what: string, change: () => void) => {
    try {
      change();
    } catch (error) {
      throw new UsageError(`${what}: ${(error as Error).message}`, help);
    }
  };
  if (values.amount !== undefined) setPath(body, 'payment.amount', amount(values.amount));
  if (values.currency !== undefined) setPath(body, 'payment.currency', values.currency);
  if (values.reference !== undefined) setPath(body, 'reference_id', values.reference);
  if (values.method !== undefined) setPath(body, 'method', values.method);
  if (values['webhook-url'] !== undefined) setPath(body, 'webhook_url', values['webhook-url']);
  // In the order given, so a later --set overrides an earlier one, as on any command line.
  for (const token of tokens) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    const option = `--${token.name}`;
    if (token.name === 'unset') edit(option, () => unsetPath(body, token.value!));
    if (token.name === 'set' || token.name === 'set-json') {
      const at = token.value.indexOf('=');
      if (at < 0) throw new UsageError(`${option} takes PATH=VALUE, such as customer.email=a@b.example`, help);
      const path = token.value.slice(0, at);
      const raw = token.value.slice(at + 1);
      edit(option, () => setPath(body, path, token.name === 'set' ? raw : json(raw)));
    }
  }
  if (values['dry-run']) {
    io.out(JSON.stringify(body, null, 2));
    return EXIT.ok;
  }
  const defaulted = values.merchant === undefined && !io.env['PAY_SANDBOX_MERCHANT'];
  const { code, status } = await send(kind, base, merchant, body, values.json === true, io);
  // The likely mistake behind a refused signature when nobody said who signs: the sandbox was
  // started with merchants of its own (`serve --merchant`), which the demo merchant is not one of.
  if (defaulted && status === 401) {
    io.err(
      `  hint: this command signed as the demo merchant ${DEMO_MERCHANT.id}, as no --merchant was given; a sandbox started with --merchant takes only its own merchants: pass --merchant ID:SECRET (or set PAY_SANDBOX_MERCHANT)`,
    );
  }
  return code;
}

/** `--merchant ID:SECRET` (else PAY_SANDBOX_MERCHANT, else the demo merchant). Messages never hold the secret. */
function signer(given: string | undefined, io: Io, help: string): { id: string; secret: string } {
  const fromEnv = io.env['PAY_SANDBOX_MERCHANT'] || undefined;
  const text = given ?? fromEnv;
  if (text === undefined) return DEMO_MERCHANT;
  const name = given === undefined ? 'PAY_SANDBOX_MERCHANT' : '--merchant';
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1)
    throw new UsageError(`${name} must be ID:SECRET (the secret is everything after the first colon)`, help);
  const id = text.slice(0, colon);
  if (!MERCHANT_ID.test(id)) throw new UsageError(`${name}: the merchant id must be 1 to 64 visible ASCII characters`, help);
  return { id, secret: text.slice(colon + 1) };
}

/**
 * `--amount`: a JSON number when that is exactly the amount typed (10.50 is 10.5), else the text
 * as a string: digits a number cannot hold (the schema takes decimal strings, kept digit for
 * digit), or no amount at all, for the sandbox to refuse with the field's path.
 */
function amount(text: string): number | string {
  if (!/^-?[0-9]+(?:\.[0-9]+)?$/.test(text)) return text;
  const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  const number = Number(text);
  return String(number) === trimmed ? number : text;
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TypeError('the value is not JSON (a string is written "in quotes")');
  }
}

/** Signs and POSTs the body; prints the answer. Resolves with the exit code and the answer's HTTP status (null: none). */
async function send(
  kind: Kind,
  base: string,
  merchant: { id: string; secret: string },
  body: Body,
  raw: boolean,
  io: Io,
): Promise<{ code: number; status: number | null }> {
  const path = `/v2/merchants/${kind}s/`;
  const url = `${base}${path}`;
  const text = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    ...signRequest({ merchantId: merchant.id, secret: merchant.secret, method: 'POST', url, body: text }),
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CREATE_TIMEOUT_MS);
  let status: number;
  let answer: string;
  try {
    const response = await nodeTransport({ method: 'POST', url, headers, body: text, signal: controller.signal });
    status = response.status;
    answer = await response.text();
  } catch (error) {
    const why = controller.signal.aborted ? `no answer within ${CREATE_TIMEOUT_MS / 1000} s` : describeFailure(error);
    return { code: reportNoAnswer(`POST ${path}: cannot reach the sandbox at ${base} (${why})`, io), status: null };
  } finally {
    clearTimeout(timer);
  }
  const ok = status >= 200 && status < 300;
  if (raw) {
    // The answer as it came, accepted or refused, for scripts: the exit code says which.
    io.out(answer);
    return { code: ok ? EXIT.ok : EXIT.refused, status };
  }
  if (ok) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer);
    } catch {
      parsed = undefined;
    }
    if (parsed !== null && typeof parsed === 'object') {
      io.out(summary(kind, merchant.id, parsed as Created));
      return { code: EXIT.ok, status };
    }
  }
  // A refusal of the service endpoint, read as the admin client reads the admin API's.
  const refused = ok ? undefined : readErrorAnswer(status, answer);
  if (refused === undefined) {
    const what = `POST ${path}: the answer (${status}) of ${base} is not the sandbox's JSON; is it a sandbox?`;
    return { code: reportNoAnswer(what, io), status };
  }
  return { code: reportRefusal(refused, io), status };
}

/** What the summary reads of a create answer (the sandbox's, but read as any answer: leniently). */
type Created = Partial<PayinCreateResponse>;

/** An answer's amount as the interface's decimal text with its currency's digits (`10.50 EUR`); what is not one, as it came. */
function shownAmount(payment: Created['payment']): string {
  const { amount, currency } = (payment ?? {}) as { amount?: unknown; currency?: unknown };
  if ((typeof amount === 'number' || typeof amount === 'string') && typeof currency === 'string') return formatAmount(amount, currency);
  return `${String(amount)} ${String(currency)}`;
}

/** A created record, for people. */
function summary(kind: Kind, merchantId: string, record: Created): string {
  const lines = [
    `${kind} ${printable(record.id)} created, status ${printable(record.status)}`,
    `  amount       ${printable(shownAmount(record.payment))}`,
    `  reference    ${record.reference_id == null ? '-' : printable(record.reference_id)}`,
    `  merchant     ${printable(merchantId)}`,
  ];
  if (record.next_action != null) lines.push(`  next action  ${printable(record.next_action.type)} ${printable(record.next_action.url)}`);
  return lines.join('\n');
}
