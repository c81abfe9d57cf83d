// Types of index.mjs.

/** A valid payin create body (version 2), from the schema's examples, with `overrides` laid over it. */
export declare function payinBody(overrides?: Record<string, unknown>): Record<string, unknown>;
/** A valid payout create body, from the schema's examples, with `overrides` laid over it. */
export declare function payoutBody(overrides?: Record<string, unknown>): Record<string, unknown>;
/** A free loopback port (another process may take it before it is bound: retry on EADDRINUSE). */
export declare function freePort(): Promise<number>;
/**
 * Runs `check` every `everyMs` (25) until it gives a value other than undefined, false or null,
 * and resolves with it; fails after `timeoutMs` (30 s) of real time, saying `what` it waited for.
 * For what a test cannot be told about (another process's work); business time belongs on a test clock.
 */
export declare function until<T>(
  check: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  options: { what: string; timeoutMs?: number; everyMs?: number },
): Promise<T>;

/**
 * Runs a command to its end without blocking the event loop, killed after `timeoutMs` (90 s):
 * resolves with its exit code (null when killed), signal and whole output; rejects when it cannot start.
 */
export declare function runToEnd(
  cmd: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
