// The entry point of the single executable `pay-conformance` (tools/executables.mjs bundles this
// file and all it imports into one CommonJS script that Node runs as a single executable
// application). It hands the runner what the build put into the executable as assets, then
// starts the CLI exactly as dist/cli.js does. The assets (written by tools/executables/assets.mjs):
//   manifest.json    {"versions": {"@pay/conformance": "…", …}, "vectors": ["sign_request_get.json", …]}
//   vectors/NAME     each vector file, byte for byte
import { getAsset } from 'node:sea';
import { setBuiltIn } from './built-in.js';

interface Manifest {
  versions: Record<string, string>;
  vectors: string[];
}

const manifest = JSON.parse(getAsset('manifest.json', 'utf8')) as Manifest;
setBuiltIn({
  vectorsLabel: `(built into ${process.execPath})`,
  versions: manifest.versions,
  vectors: () => manifest.vectors.map((file) => ({ file, text: getAsset(`vectors/${file}`, 'utf8') })),
});

// Loaded only now: the CLI's modules read what is built in as they load.
import('./cli.js').catch((e: unknown) => {
  process.stderr.write(`pay-conformance: internal error: ${String(e)}\n`);
  process.exitCode = 2;
});
