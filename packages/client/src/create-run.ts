// One create as it runs: what every step of it (the sends, the reconciling after a lost answer,
// the lookup after a 409) reports and throws, in one place, so each step can live in its own file.
import type { PayError, RawResponse } from './errors.js';
import { ApiError, OutcomeUnknownError } from './errors.js';
import type { ReconcileEvent } from './hooks.js';
import type { Probe, Result } from './lookup.js';
import { probe } from './lookup.js';
import { reconciling } from './observe.js';
import type { Dated } from './response.js';
import type { Signer } from './signer.js';
import type { Endpoint } from '@pay/schema';
import type { Call } from './call-types.js';

/** One create, as the client sends it. */
export interface CreateSpec {
  /** The create endpoint. */
  readonly endpoint: Endpoint;
  /** Its URL. */
  readonly url: string;
  /** The lookup by reference_id of the records it creates. */
  readonly lookupEndpoint: Endpoint;
  /** The lookup by this create's reference_id. */
  readonly lookupUrl: string;
  /** The validated body, reference_id included, as JSON text: serialised once. */
  readonly json: string;
  readonly referenceId: string;
  /** What a record found by reference must match to be this create's. */
  readonly payment: { readonly amount: number | string; readonly currency?: string | undefined };
}

/** A record as a create or a lookup answers it: the datetimes every record has, and its money. */
export type Timed = Record<'created_at' | 'updated_at' | 'expires_at', string> & { payment: { amount: unknown; currency: unknown } };

/** A create's result when the record was found by reference. */
export interface Found<L> {
  readonly reconciled: true;
  readonly referenceId: string;
  readonly data: Dated<L>;
  readonly response: RawResponse;
}

/** An attempt whose answer was lost: why, and the error to throw when nothing better is known. */
export interface Lost {
  readonly reason: string;
  readonly error: PayError;
}

/** One running create: its call, signer and spec, and the events and errors all its steps share. */
export interface CreateRun<L extends Timed> {
  readonly call: Call;
  readonly signer: Signer;
  readonly spec: CreateSpec;
  /** One lookup by this create's reference_id. */
  lookup(): Promise<Probe<L>>;
  /** Reports a reconcile step to the hooks. */
  event(step: ReconcileEvent['step'], reason: string, delayMs?: number): void;
  /** The result from a record found by reference (and its `found` event). */
  found(result: Result<Dated<L>>, reason: string): Found<L>;
  /** The error for a reference_id that belongs to another transaction: nothing was created. */
  conflict(response: RawResponse): ApiError;
  /** The error for an outcome not yet known, with the time from which it can be decided. */
  unknown(timestamp: number, behindMs: number, reason: string, cause: unknown): OutcomeUnknownError;
}

/** The shared part of one create. */
export function createRun<L extends Timed>(call: Call, signer: Signer, spec: CreateSpec): CreateRun<L> {
  const { settings, operation } = call;
  const referenceId = spec.referenceId;
  const event = (step: ReconcileEvent['step'], reason: string, delayMs?: number) =>
    reconciling(call, { operation, referenceId, step, reason, ...(delayMs === undefined ? {} : { delayMs }) });
  return {
    call,
    signer,
    spec,
    event,
    lookup: () => probe<L>(call, signer, spec.lookupEndpoint, spec.lookupUrl),
    found(result, reason) {
      event('found', reason);
      return { reconciled: true as const, referenceId, data: result.data, response: result.response };
    },
    conflict(response) {
      return new ApiError(
        operation,
        response,
        `reference_id ${JSON.stringify(referenceId)} already belongs to another transaction (different amount or currency); nothing was created`,
      );
    },
    unknown(timestamp, behindMs, reason, cause) {
      const decidableAt = new Date((timestamp + settings.toleranceSeconds + 1 + settings.settleSeconds) * 1000 + behindMs);
      event('unknown', reason);
      return new OutcomeUnknownError(operation, referenceId, decidableAt, reason, cause);
    },
  };
}
