// The reference adapter's client commands: each performs one operation with @pay/client against
// the addresses given, with the time limits and tolerance given, and answers the outcome in the
// protocol's terms (the record, an error of a named kind, or outcome unknown).
import { type Client, createClient, isPayError } from '@pay/client';
import { CLIENT_COMMANDS, type ClientCommand } from '../types.js';

type Obj = Record<string, unknown>;

/** Whether a command is one of the client commands. */
export const isClientCommand = (cmd: unknown): cmd is ClientCommand => (CLIENT_COMMANDS as readonly unknown[]).includes(cmd);

function text(req: Obj, key: string): string {
  const v = req[key];
  if (typeof v !== 'string') throw new Error(`"${key}" must be a string`);
  return v;
}

function whole(req: Obj, key: string): number {
  const v = req[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`"${key}" must be a whole number`);
  return v;
}

function object(req: Obj, key: string): Obj {
  const v = req[key];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`"${key}" must be an object`);
  return v as Obj;
}

/** A client for the addresses, merchant and limits a request gives. */
function clientFor(req: Obj): Client {
  return createClient({
    baseUrl: text(req, 'base_url'),
    cardProxyUrl: text(req, 'card_proxy_url'),
    merchantId: text(req, 'merchant_id'),
    secret: text(req, 'secret'),
    timeoutMs: whole(req, 'timeout_ms'),
    totalTimeoutMs: whole(req, 'total_timeout_ms'),
    toleranceSeconds: whole(req, 'tolerance_seconds'),
    settleSeconds: whole(req, 'settle_seconds'),
  });
}

/** A record as the protocol answers it: amounts as decimal strings, datetimes in ISO 8601 UTC. */
function recordOf(data: Obj | null): Obj | null {
  if (data === null) return null;
  const payment = (data['payment'] ?? {}) as Obj;
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  return {
    id: data['id'],
    reference_id: data['reference_id'],
    status: data['status'],
    payment: { amount: String(payment['amount']), currency: payment['currency'] },
    created_at: iso(data['created_at']),
    updated_at: iso(data['updated_at']),
    expires_at: iso(data['expires_at']),
  };
}

/** The field paths a 400's JSON body lists (`{error: {errors: [{path}]}}`). */
function pathsOf(body: string): string[] {
  try {
    const errors = (JSON.parse(body) as { error?: { errors?: { path?: unknown }[] } }).error?.errors ?? [];
    return errors.map((e) => e.path).filter((p): p is string => typeof p === 'string');
  } catch {
    return [];
  }
}

/**
 * An error of @pay/client as the protocol names its kind: the client's own `kind`, read by its
 * brand (isPayError), so a client from another installed copy is read the same.
 */
function errorOf(e: unknown): Obj {
  if (isPayError(e, 'outcome_unknown')) return { outcome: 'unknown', reference_id: e.referenceId };
  if (!isPayError(e)) throw e;
  const error: Obj = { outcome: 'error', kind: e.kind, message: e.message };
  if (isPayError(e, 'api')) {
    error['status'] = e.status;
    if (e.code !== undefined) error['code'] = e.code;
    error['paths'] = pathsOf(e.response.body);
  }
  if (isPayError(e, 'invalid_request')) error['paths'] = e.errors.map((x) => x.path);
  return error;
}

/** Performs one client command; answers its outcome (never throws for an outcome of the call). */
export async function answerClient(cmd: ClientCommand, req: Obj): Promise<Obj> {
  const pay = clientFor(req);
  try {
    const data = await perform(pay, cmd, req);
    return { case: req['case'], outcome: 'ok', record: recordOf(data as Obj | null) };
  } catch (e) {
    return { case: req['case'], ...errorOf(e) };
  }
}

async function perform(pay: Client, cmd: ClientCommand, req: Obj): Promise<unknown> {
  switch (cmd) {
    case 'client_create_payin':
      return (await pay.payins.create(object(req, 'params') as never)).data;
    case 'client_create_payin_legacy':
      return (await pay.payins.createLegacy(object(req, 'params') as never)).data;
    case 'client_create_payout':
      return req['payment_page'] === true
        ? (await pay.payouts.create(object(req, 'params') as never, { paymentPage: true })).data
        : (await pay.payouts.create(object(req, 'params') as never)).data;
    case 'client_get_payin':
      return (await pay.payins.get(text(req, 'id'))).data;
    case 'client_get_payin_by_reference':
      return (await pay.payins.getByReference(text(req, 'reference_id'))).data;
    case 'client_get_payout':
      return (await pay.payouts.get(text(req, 'id'))).data;
    case 'client_get_payout_by_reference':
      return (await pay.payouts.getByReference(text(req, 'reference_id'))).data;
    case 'client_push_card': {
      const card = object(req, 'card') as never;
      return (await pay.payins.pushCard({ payinId: text(req, 'payin_id'), url: text(req, 'url') }, card)).data;
    }
  }
}
