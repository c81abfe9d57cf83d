// The exactly-once oracle (@pay/test-oracle) around every test of a describe block that shares one
// sandbox: its request log followed from the start of each test, and after it, no reference_id
// with two records on the sandbox and no create refused as a duplicate.
import type { RunningSandbox } from '@pay/sandbox';
import { exactlyOnceReport, followRequests, type LoggedRequest } from '@pay/test-oracle';
import { afterEach, beforeEach, expect } from 'vitest';

/**
 * Registers the oracle; call it after the block's own beforeEach that resets the sandbox. A test
 * that resets the sandbox itself calls `reset()` instead, which keeps the log read so far.
 */
export function judgedExactlyOnce(sandbox: () => RunningSandbox): { reset(): Promise<void> } {
  let requests: Awaited<ReturnType<typeof followRequests>>;
  let earlier: LoggedRequest[] = [];
  beforeEach(async () => {
    requests = await followRequests(sandbox().admin);
    earlier = [];
  });
  afterEach(async () => {
    const report = await exactlyOnceReport(sandbox().admin, { requests: [...earlier, ...(await requests.stop())] });
    expect(report.duplicated).toEqual([]);
    expect(report.refused).toEqual([]);
  });
  return {
    async reset() {
      earlier.push(...(await requests.stop()));
      await sandbox().admin.reset();
      requests = await followRequests(sandbox().admin);
    },
  };
}
