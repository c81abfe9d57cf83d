// Who is running: the package's name and version, for reports, and the command line that starts
// the bundled reference adapter (this same CLI, as `adapter`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The CLI's entry point, dist/cli.js (this file is dist/cli/runner.js). */
const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
  name: string;
  version: string;
};

/** The runner's name and version, as the reports give them. */
export const RUNNER = { name: pkg.name, version: pkg.version };

/** The implementation's command line in reports when it is the bundled reference adapter. */
export const REFERENCE = '(bundled reference adapter)';

/** The bundled reference adapter as a protocol child: this CLI's `adapter` command on this Node. */
export function referenceArgv(): string[] {
  return [process.execPath, cli, 'adapter'];
}
