// `pnpm test`'s scheduler: the longest suites start first, at most so many at once, and a package
// whose tests fail stops none of the others. The jobs here are real child processes.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST, runInLanes, startOrder } from '../test-all.mjs';
import { workspacePackages } from '../workspace.mjs';

describe('startOrder', () => {
  it('starts the named longest suites first, in their order, then the rest as given', () => {
    expect(startOrder(['@pay/sign', '@pay/conformance', '@pay/new', '@pay/journal', '@pay/schema'])).toEqual([
      '@pay/journal',
      '@pay/conformance',
      '@pay/sign',
      '@pay/new',
      '@pay/schema',
    ]);
  });

  it('names only packages that have tests: a renamed one would silently lose its place', () => {
    const withTests = new Set(
      workspacePackages()
        .filter((p) => p.manifest.scripts?.test)
        .map((p) => p.name),
    );
    expect(LONGEST_FIRST.filter((name) => !withTests.has(name))).toEqual([]);
  });
});

describe('runInLanes', () => {
  it('runs at most `lanes` jobs at once, starting each in the order given as soon as one ends; a failure stops none', async () => {
    const events = [];
    let running = 0;
    let most = 0;
    /** A child process that sleeps `ms` and exits with `code`. */
    const start = ({ id, ms, code }) =>
      new Promise((resolve, reject) => {
        running += 1;
        most = Math.max(most, running);
        events.push(`start ${id}`);
        const child = spawn(process.execPath, ['-e', `setTimeout(() => process.exit(${code}), ${ms})`]);
        child.on('close', (exit) => {
          running -= 1;
          events.push(`end ${id}`);
          if (exit === 0) resolve(exit);
          else reject(new Error(`${id} exited ${exit}`));
        });
      });
    const jobs = [
      { id: 'a', ms: 600, code: 0 },
      { id: 'b', ms: 50, code: 3 },
      { id: 'c', ms: 50, code: 0 },
      { id: 'd', ms: 50, code: 0 },
    ];
    const results = await runInLanes(jobs, 2, start);
    expect(most).toBe(2);
    expect(events.slice(0, 2)).toEqual(['start a', 'start b']);
    // b ended long before a: c and d took its lane, one after the other, while a still ran.
    expect(events.indexOf('start c')).toBeGreaterThan(events.indexOf('end b'));
    expect(events.indexOf('end d')).toBeLessThan(events.indexOf('end a'));
    expect(results[0]).toBe(0);
    expect(results[1]).toBeInstanceOf(Error);
    expect(String(results[1])).toContain('b exited 3');
    expect(results.slice(2)).toEqual([0, 0]);
  });

  it('runs every job when there are fewer than lanes, and none when there are none', async () => {
    expect(await runInLanes([1, 2], 3, async (n) => n * 10)).toEqual([10, 20]);
    expect(await runInLanes([], 3, async () => 1)).toEqual([]);
  });
});
