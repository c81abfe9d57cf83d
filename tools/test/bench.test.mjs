// The side-by-side benchmark helper: its quantiles against values worked out by hand, and a real
// (tiny) run that prints each ratio with the spread of its rounds.
import { describe, expect, it, vi } from 'vitest';
import { compare, quantile } from '../bench.mjs';

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
