// A second installed copy of @pay/client, as an app gets when it and a library pin different
// versions: the package's built files under another node_modules, loaded as a module of their own.
// Its classes are not this copy's (`instanceof` says false both ways), which is what the journal
// must survive: it decides on the client's errors by brand and kind, never by class.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

type ClientModule = typeof import('@pay/client');

/**
 * Loads a copy of @pay/client from a temporary node_modules; `url` is its entry (a child process
 * loads it with CLIENT_MODULE=url: fixtures/client-from-env.mjs); `remove()` deletes the files.
 */
export async function secondClientCopy(): Promise<{ module: ClientModule; url: string; remove(): void }> {
  const require = createRequire(import.meta.url);
  const original = dirname(require.resolve('@pay/client/package.json'));
  const root = mkdtempSync(join(tmpdir(), 'pay-client-copy-'));
  const at = join(root, 'node_modules', '@pay', 'client');
  mkdirSync(at, { recursive: true });
  cpSync(join(original, 'package.json'), join(at, 'package.json'));
  cpSync(join(original, 'dist'), join(at, 'dist'), { recursive: true });
  // Its own dependencies (as its package.json lists them), found from the copy's place as npm
  // would lay them out.
  const manifest = JSON.parse(readFileSync(join(original, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    mkdirSync(dirname(join(root, 'node_modules', name)), { recursive: true });
    symlinkSync(
      dirname(createRequire(join(original, 'package.json')).resolve(`${name}/package.json`)),
      join(root, 'node_modules', name),
      'dir',
    );
  }
  const url = pathToFileURL(join(at, 'dist', 'index.js')).href;
  const module = (await import(url)) as ClientModule;
  return { module, url, remove: () => rmSync(root, { recursive: true, force: true }) };
}
