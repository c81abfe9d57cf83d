// The errors that mean the runner itself could not run: raised where that happens (vector files,
// a command that cannot be started, a report that cannot be written) and turned into exit 2, with
// their message, by the CLI.

/** The vector files cannot be used: missing, unreadable, or not in the shape the runner needs. */
export class VectorError extends Error {
  override name = 'VectorError';
}

/** The harness itself could not run (a command that cannot be started, a report that cannot be written). */
export class HarnessError extends Error {
  override name = 'HarnessError';
}
