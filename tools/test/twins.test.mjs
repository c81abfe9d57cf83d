// Files packages hold in identical copies: each package is published alone, with no runtime
// dependency through which to share them, so the copies are kept equal here instead.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { root } from '../workspace.mjs';

const TWINS = [
  // Loading the optional @opentelemetry/api peer, and the providers registered.
  ...['otel.ts', 'otel-node.ts', 'otel-none.ts'].flatMap((file) =>
    ['webhook', 'journal'].map((pkg) => [`packages/client/src/${file}`, `packages/${pkg}/src/${file}`]),
  ),
];

it.each(TWINS)('%s and %s are the same', (a, b) => {
  expect(readFileSync(join(root, b), 'utf8')).toBe(readFileSync(join(root, a), 'utf8'));
});
