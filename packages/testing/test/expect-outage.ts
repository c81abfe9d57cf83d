// What the README's outage must leave behind, whatever the database: checked on PGlite
// (outage.test.ts) and on PostgreSQL (outage-postgres.test.ts).
import { expect } from 'vitest';
import type { OutageResult } from './outage.js';

// Worked out from the interface and the design, not from the code: the payin is created at 09:00
// and executed at once; the webhook is tried at once, retried at once, then 15 min, 30 min and
// 1 h after the attempt before (09:00, 09:00, 09:15, 09:45, 10:45), each refused; the
// reconciler's first lookup is 15 min after the first status (09:15), and its pass runs every
// minute from 09:01, so it finds the payment at 09:15.
const REFUSED = /^executed #\d \S+ (?!\d)/;
export function expectTheOutage(result: OutageResult): void {
  const executed = result.attempts.filter((a) => a.startsWith('executed '));
  expect(result.attempts.filter((a) => !a.startsWith('executed '))).toEqual(['new #1 09:00:00 200']);
  expect(executed.map((a) => a.split(' ')[2])).toEqual(['09:00:00', '09:00:00', '09:15:00', '09:45:00', '10:45:00']);
  for (const attempt of executed) expect(attempt).toMatch(REFUSED);
  expect(result.order).toEqual({ paid_at: '09:15:00', paid_by: 'reconciler' });
  expect(result.handled.filter((line) => line.includes('executed'))).toEqual(['09:15:00 executed from reconciler']);
  expect(result.now).toBe('2026-03-02T11:00:00.000Z');
}
