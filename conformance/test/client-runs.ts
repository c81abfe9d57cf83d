// What the client-mode test files share: how a run's JSON report is read, a case's id, the bound
// on one run, and the check that nothing the runner wrote shows a secret or a card.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ClientCase } from '../src/http/client/cases.js';
import type { JsonReport } from './helpers.js';

/** The JSON report a client-mode run wrote to `file`. */
export const report = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JsonReport & { mode: string };
/** A case's id as reports and `--id` write it. */
export const idOf = (c: ClientCase) => `${c.category}/${c.name}`;
/** Generous bounds for hangs, not performance claims: a busy two-core machine runs these in parallel. */
export const RUN_LIMIT_MS = 170_000;

/** What the runner prints or writes must never show the run's secret or the card pushed. */
export function expectNothingSecret(text: string, name: string): void {
  expect(text.length, name).toBeGreaterThan(100);
  expect(text, name).not.toMatch(/sk_test_[0-9a-f]{8}/);
  expect(text, name).not.toContain('4242424242424242');
}
