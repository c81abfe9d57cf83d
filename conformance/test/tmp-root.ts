// One directory for the run's test directories (tmp() in helpers.ts), made before any file runs
// and removed after the last: the workers that make them are stopped without an exit event, so
// they cannot remove their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's test directories are made. */
    tmpRoot: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'pay-conformance-'));
  project.provide('tmpRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
