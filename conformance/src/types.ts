// The shapes every part of the runner shares (vectors, case results, run results) and the
// protocol's constants. No logic here.

/** The harness protocol's version (PROTOCOL.md), sent in hello and required of every vector file. */
export const PROTOCOL_VERSION = 1;
/** The protocol's default per-request limit, and the HTTP modes' default. */
export const DEFAULT_TIMEOUT_MS = 5000;
/**
 * The default limit for a child to start and answer hello. Start-up is not a request: a JVM, or a
 * Python reached through a version manager's shim (about 1.6 s idle here), on a busy two-core CI
 * machine takes several times the per-request limit, and a missed hello fails every case.
 */
export const DEFAULT_START_TIMEOUT_MS = 30_000;

/** The protocol's commands, besides hello and bye. */
export const COMMANDS = ['sign_request', 'sign_simplified', 'verify_webhook', 'verify_request'] as const;
/** One of the protocol's commands. */
export type Command = (typeof COMMANDS)[number];

/**
 * The client commands (PROTOCOL.md, "Client commands"): each asks the implementation to perform one
 * operation with its SDK against the addresses given. Added to version 1 as capabilities: a child
 * that does not declare them is never sent one.
 */
export const CLIENT_COMMANDS = [
  'client_create_payin',
  'client_create_payin_legacy',
  'client_create_payout',
  'client_get_payin',
  'client_get_payin_by_reference',
  'client_get_payout',
  'client_get_payout_by_reference',
  'client_push_card',
] as const;
/** One of the client commands. */
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

/** The kinds of error a client command may answer, in the SDK's terms (PROTOCOL.md). */
export const CLIENT_ERROR_KINDS = [
  'invalid_request',
  'authentication',
  'not_found',
  'api',
  'invalid_response',
  'network',
  'timeout',
] as const;
/** One of the client error kinds. */
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/** Why a verifier refuses, in the order its checks run. */
export const REASON_CODES = [
  'missing_header',
  'malformed_timestamp',
  'expired',
  'merchant_mismatch',
  'malformed_signature',
  'bad_signature',
] as const;

/** A signer's mistake: the signature it produces for one vector. */
export interface Mistake {
  name: string;
  description: string;
  signature: string;
}

/** A verifier's answer: the verdict and, when invalid, the reason. */
export interface Answer {
  valid: boolean;
  reason: string | null;
}

/** A verifier's mistake: the answer it gives for one vector. */
export interface VerifyMistake {
  name: string;
  description: string;
  answer: Answer;
}

/** What makes either choice on an acceptable verdict deliberate (vector ids that must pass). */
export interface AcceptableConditions {
  valid: { requires: string[] };
  invalid: { reasons: string[]; requires: string[] };
}

/** What every vector has, signing or verification (see vectors/README.md). */
interface VectorBase {
  id: string;
  description: string;
  flags: string[];
  input: Record<string, unknown>;
  string_to_sign_b64?: string;
  string_to_sign_utf8?: string | null;
}

/** A signing vector: the headers a correct signer answers, and the signatures of known mistakes. */
export interface SignVector extends VectorBase {
  kind: 'sign';
  expected: { headers: Record<string, string> };
  mistakes: Mistake[];
}

/** A verification vector: the verdict (and reason) a correct verifier answers, and the answers of known mistakes. */
export interface VerifyVector extends VectorBase {
  kind: 'verify';
  expected: { verdict: 'valid' | 'invalid' | 'acceptable'; reason: string | null; acceptable?: AcceptableConditions };
  mistakes: VerifyMistake[];
}

/** Any vector. */
export type Vector = SignVector | VerifyVector;

/** One vector file: a category of one command. */
export interface CategoryFile {
  file: string;
  suite: string;
  suite_version: string;
  protocol: number;
  category: string;
  command: Command;
  description: string;
  vectors: Vector[];
}

/** The vector files of a directory, one suite at one version. */
export interface Suite {
  dir: string;
  suite: string;
  suite_version: string;
  categories: CategoryFile[];
}

/** How a case ended (see README.md, Case statuses). */
export type CaseStatus = 'pass' | 'fail' | 'skip' | 'error' | 'timeout' | 'crash' | 'not_run';

/** Where an implementation's string to sign parts from the vector's. */
export interface FirstDifference {
  /** byte offset where the two strings to sign part */
  offset: number;
  expected_length: number;
  got_length: number;
  /** a few bytes around the offset, escaped for display */
  expected_context: string;
  got_context: string;
}

/** One case as every report shows it, whatever the mode. */
export interface CaseResult {
  id: string;
  category: string;
  command: string;
  status: CaseStatus;
  description: string;
  flags: string[];
  expected: unknown;
  got: unknown;
  /** one or more sentences a person can act on; absent on a plain pass */
  diagnosis?: string;
  /** the named mistake the answer reveals (the vector's, or the runner's own re-serialisation check) */
  mistake?: string;
  /** verification: the named mistakes that would give this answer, when the other answers cannot tell them apart */
  mistake_candidates?: string[];
  first_difference?: FirstDifference;
  /** verify cases: the verdict was right, the reason code was not */
  reason_mismatch?: { expected: string | null; got: string | null };
  /** acceptable verify cases: the verdict the implementation chose */
  chosen_verdict?: 'valid' | 'invalid';
  /** the child's stderr while the case was in flight (bounded), on failures */
  stderr?: string;
  /** the child exited right after answering this case (before the next request was answered) */
  child_exited_after?: { code: number | null; signal: string | null };
  duration_ms: number;
}

/** A child's hello answer, checked. */
export interface Hello {
  protocol: number;
  name: string;
  version: string;
  language: string;
  capabilities: string[];
  [extra: string]: unknown;
}

/** The counts of one category. */
export interface CategorySummary {
  category: string;
  command: string;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** A finished run of any mode, in the shape every report takes. */
export interface RunResult {
  /** which mode produced it (default: run, the vectors over the harness protocol) */
  mode?: 'run' | 'server' | 'webhook-endpoint' | 'client';
  suite: string;
  suite_version: string;
  protocol: number;
  vectors_dir: string;
  implementation: { command: string; hello: Hello | null; hello_error?: string };
  started_at: string;
  duration_ms: number;
  cases: CaseResult[];
  categories: CategorySummary[];
  restarts: number;
  stopped_early?: string;
  /** a hint about the child itself (buffered stdout, exits after every answer), when one applies */
  child_hint?: string;
}

/** The statuses that fail a run. */
export const FAILED_STATUSES: ReadonlySet<CaseStatus> = new Set(['fail', 'error', 'timeout', 'crash', 'not_run']);
