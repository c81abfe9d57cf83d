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

/**
 * A report directory given to `pay-conformance report` cannot be merged: missing, not JSON, not a
 * summary this runner writes, another schema version, or a field not in its shape. It names the
 * file and the field, so the fix is one look away; it is a HarnessError, so the CLI exits 2.
 */
export class ReportInputError extends HarnessError {
  override name = 'ReportInputError';
  constructor(
    /** the file (or directory) that cannot be used, as given */
    readonly file: string,
    /** the field at fault, as a path (`groups[2].counts.pass`), or '' when the whole file is */
    readonly field: string,
    problem: string,
  ) {
    super(`${file}${field ? `: ${field}` : ''}: ${problem}`);
  }
}
