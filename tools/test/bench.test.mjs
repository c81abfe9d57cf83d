// The side-by-side benchmark helper: its quantiles against values worked out by hand, and a real
// (tiny) run that prints each ratio with the spread of its rounds; and the copy of a built package
// without its optional peers that the telemetry benchmarks compare against.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { compare, copyWithoutPeers, quantile } from '../bench.mjs';
import { root } from '../workspace.mjs';

describe('quantile', () => {
  it.each([
    [[5], 0.5, 5],
    [[3, 1, 2], 0.5, 2],
    [[4, 1, 3, 2], 0.5, 2.5],
    [[4, 1, 3, 2], 0.25, 1.75],
    [[4, 1, 3, 2], 0.75, 3.25],
    [[10, 20, 30, 40, 50], 0.25, 20],
    [[10, 20, 30, 40, 50], 0, 10],
    [[10, 20, 30, 40, 50], 1, 50],
  ])('of %j at %d is %d', (xs, q, expected) => {
    expect(quantile(xs, q)).toBeCloseTo(expected, 12);
  });
  it('does not reorder its input', () => {
    const xs = [3, 1, 2];
    quantile(xs, 0.5);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe('compare', () => {
  it('returns each ratio to the baseline and prints it with the middle half of its rounds', async () => {
    const lines = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line) => lines.push(String(line)));
    try {
      let _sink = 0;
      const ratios = await compare(
        'tiny',
        [
          'sum 10',
          () => {
            for (let i = 0; i < 10; i++) _sink += i;
          },
        ],
        {
          'sum 1000': () => {
            for (let i = 0; i < 1000; i++) _sink += i;
          },
        },
        { rounds: 3, time: 20 },
      );
      expect(ratios['sum 10']).toBe(1);
      expect(Number.isFinite(ratios['sum 1000']) && ratios['sum 1000'] > 0).toBe(true);
      expect(lines.join('\n')).toMatch(/sum 1000 .* ops\/s {3}\d+\.\d{2}x baseline \(middle half of rounds \d+\.\d{2}-\d+\.\d{2}\)/);
      expect(lines.join('\n')).toMatch(/sum 10 .* ops\/s {3}baseline$/m);
    } finally {
      log.mockRestore();
    }
  });
});

describe('copyWithoutPeers', () => {
  it('copies a built package where its dependencies resolve and its optional peer (@opentelemetry/api) does not', () => {
    const client = join(root, 'packages', 'client');
    const copy = copyWithoutPeers(client);
    // In a process of its own without NODE_PATH, as `pnpm bench` runs node (pnpm's bin shims, the
    // test runner's among them, set NODE_PATH to a directory where every package is found).
    const resolve = (from, name) => {
      const script = `try { console.log(require('node:module').createRequire(${JSON.stringify(from)}).resolve(${JSON.stringify(name)})) } catch (e) { console.log(e.code) }`;
      const env = { ...process.env };
      delete env.NODE_PATH;
      return execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }).trim();
    };
    const entry = new URL('dist/index.js', copy).href;
    expect(resolve(entry, '@opentelemetry/api')).toBe('MODULE_NOT_FOUND');
    // Nor from @pay/otel, which loads it for the client: copied the same way, not linked to its
    // workspace folder (where the peer is a devDependency).
    const otel = resolve(entry, '@pay/otel');
    expect(otel).toBe(join(fileURLToPath(copy), '..', 'otel', 'dist', 'index.js'));
    expect(resolve(otel, '@opentelemetry/api')).toBe('MODULE_NOT_FOUND');
    expect(resolve(entry, '@pay/schema')).toBe(resolve(join(client, 'dist', 'index.js'), '@pay/schema'));
    // The package itself, by contrast, finds its peer (a devDependency here).
    expect(resolve(join(client, 'dist', 'index.js'), '@opentelemetry/api')).toMatch(/@opentelemetry[\\/]api/);
  });
});
