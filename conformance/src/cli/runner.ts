// Who is running: the package's name and version, for reports, and the command line that starts
// the bundled reference adapter (this same CLI, as `adapter`). In the single executable, both come
// from the executable itself (built-in.ts): there is no package.json or cli.js beside it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getBuiltIn } from '../built-in.js';

const builtIn = getBuiltIn();
/** The CLI's entry point, dist/cli.js (this file is dist/cli/runner.js). */
const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
const pkg = builtIn
  ? { name: '@pay/conformance', version: builtIn.versions['@pay/conformance'] ?? '' }
  : (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { name: string; version: string });

/** The runner's name and version, as the reports give them. */
export const RUNNER = { name: pkg.name, version: pkg.version };

/** The implementation's command line in reports when it is the bundled reference adapter. */
export const REFERENCE = '(bundled reference adapter)';

/**
 * The bundled reference adapter as a protocol child: this CLI's `adapter` command on this Node,
 * or the single executable itself (there `process.execPath` is the executable, which takes the
 * command words as the CLI does).
 */
export function referenceArgv(): string[] {
  return builtIn ? [process.execPath, 'adapter'] : [process.execPath, cli, 'adapter'];
}
