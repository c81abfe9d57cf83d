// Faults as the admin API takes and lists them (`POST` and `GET /_sandbox/faults`). Which faults
// exist is a fact of the wire: the server (faults.ts) checks a posted fault against it.

/** The kinds of fault. */
export const FAULT_KINDS = ['drop_after_commit', 'drop_before_commit', 'status_500_after_commit', 'delay', 'lookup_lag'] as const;

/** A kind of fault. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A fault waiting for requests, as `POST /_sandbox/faults` takes it and `GET` lists it. */
export interface Fault {
  /** Request method to match (compared in capitals). */
  method: string;
  /** The request's path and query must start with this (for example `/v2/merchants/payins/`). */
  path_prefix: string;
  kind: FaultKind;
  /** How many more matching requests it applies to. */
  count: number;
  /** `delay`: how long to wait before handling; `lookup_lag`: how long lookups miss the record. */
  ms: number | null;
}

/** A fault to add: `ms` only for `delay` and `lookup_lag`. */
export interface FaultInput {
  method: string;
  path_prefix: string;
  kind: FaultKind;
  count: number;
  ms?: number | undefined;
}
