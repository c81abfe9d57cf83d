// Builds the single executables from the built workspace (each package's dist/): for each tool,
// one bundled script, a SEA preparation blob made by this Node (with the tool's assets and a V8
// code cache, so that starting compiles nothing), and a copy of this Node with the blob injected.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceAssets } from './assets.mjs';
import { bundle } from './bundle.mjs';
import { injectBlob } from './inject.mjs';
import { executableName } from './target.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The tools: the built entry point each executable runs, and the files it carries inside. */
const TOOLS = [
  { tool: 'pay-conformance', entry: 'conformance/dist/executable.js', assets: conformanceAssets },
  { tool: 'pay-sandbox', entry: 'packages/sandbox/dist/cli.js', assets: () => ({}) },
];

/**
 * Writes every executable into `outDir`, named for this machine's platform; returns each one's
 * tool, file and size in bytes. Throws when a step fails, or when bundling warned.
 */
export async function makeExecutables(outDir) {
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'pay-executables-'));
  try {
    const made = [];
    for (const { tool, entry, assets } of TOOLS) {
      const dir = join(work, tool);
      mkdirSync(dir);
      const script = join(dir, `${tool}.cjs`);
      const warnings = await bundle(join(repo, entry), script);
      if (warnings.length > 0) throw new Error(`bundling ${tool} warned:\n${warnings.join('\n')}`);
      const blob = join(dir, `${tool}.blob`);
      const config = join(dir, 'sea-config.json');
      writeFileSync(
        config,
        JSON.stringify({
          // Relative to `dir`: a stack trace names the script as given here, not this build's folder.
          main: `${tool}.cjs`,
          output: `${tool}.blob`,
          // The warning that SEA is experimental would only puzzle someone running a test tool.
          disableExperimentalSEAWarning: true,
          useCodeCache: true,
          assets: assets(dir),
        }),
      );
      execFileSync(process.execPath, ['--experimental-sea-config', config], { cwd: dir, stdio: 'pipe' });
      const file = join(outDir, executableName(tool));
      await injectBlob(blob, file);
      made.push({ tool, file, bytes: statSync(file).size });
    }
    return made;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
