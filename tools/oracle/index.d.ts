/** A transaction as `GET /_sandbox/transactions` lists it: the fields the oracle reads. */
export interface SandboxRecord {
  id: string;
  kind: string;
  merchant_id: string;
  reference_id?: string | null | undefined;
}

/** An entry of `GET /_sandbox/requests`: the fields the oracle reads. */
export interface LoggedRequest {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number | null;
  code: string | null;
  message: string | null;
  body: string | null;
}

/** The parts of the sandbox's admin client (`sandbox.admin`) the oracle uses. */
export interface OracleAdmin {
  transactions(): Promise<readonly SandboxRecord[]>;
  requests(options?: { limit?: number }): Promise<readonly LoggedRequest[]>;
}

/** Records of one merchant and kind under one reference_id, when there is more than one. */
export interface DuplicatedReference {
  merchant_id: string;
  kind: string;
  reference_id: string;
  ids: string[];
}

/** A create the sandbox refused with 409 `duplicate_reference_id`. */
export interface RefusedCreate {
  seq: number;
  path: string;
  reference_id: string | null;
  message: string | null;
}

/** What the sandbox says about the creates of a test; both lists empty when every create happened once. */
export interface ExactlyOnceReport {
  /** Records on the sandbox that `only` kept. */
  records: number;
  duplicated: DuplicatedReference[];
  refused: RefusedCreate[];
}

/** The records that share a merchant, kind and reference_id with another, grouped. */
export declare function duplicatedReferences(transactions: readonly SandboxRecord[]): DuplicatedReference[];
/** The logged requests that are creates refused because their reference_id was already used. */
export declare function refusedDuplicateCreates<R extends LoggedRequest>(requests: readonly R[]): R[];
/**
 * Follows the sandbox's request log from now on (read every `intervalMs`, or only when stopped).
 * `stop()` resolves with every entry seen, oldest first, and rejects when some were missed.
 */
export declare function followRequests(
  admin: OracleAdmin,
  options?: { intervalMs?: number },
): Promise<{ stop(): Promise<LoggedRequest[]> }>;
/** Reads the sandbox's records (those whose reference_id `only` keeps) and judges them, with `requests`. */
export declare function exactlyOnceReport(
  admin: OracleAdmin,
  options?: { requests?: readonly LoggedRequest[]; only?: (referenceId: string) => boolean },
): Promise<ExactlyOnceReport>;

/** The parts of a @pay/client Client the wrong variant wraps. */
interface Creates {
  payins: { create(...args: never[]): Promise<unknown> };
  payouts: { create(...args: never[]): Promise<unknown> };
}
/**
 * The deliberately wrong variant the oracle must catch: `client` whose creates are sent again at
 * once after an `outcome_unknown` error (`isPayError` is the client copy's own).
 */
export declare function resendingAfterLostAnswer<C extends Creates>(
  client: C,
  isPayError: (error: unknown, kind: 'outcome_unknown') => boolean,
): C;

/** The same mistake one layer down: a `fetch` that sends a POST again once when its answer is lost. */
export declare function resendingFetch(fetchImpl?: typeof fetch): typeof fetch;
