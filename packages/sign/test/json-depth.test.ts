// nestsDeeper (the bound body-forms.ts puts on re-serialising a body) against the depth JSON.parse
// finds, computed here by walking the parsed value.
import { describe, expect, it } from 'vitest';
import { nestsDeeper } from '../src/json-depth.js';

const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value as object).map(depthOf)) : 0;

describe('nestsDeeper', () => {
  it.each(['1', '"x"', '{}', '[]', '{"a":[1,{"b":2}]}', '[[[[[]]]]]', '{"s":"[[[{{{","t":"\\"[{"}', '[{"a":{"b":[{"c":null}]}}]'])(
    'agrees with the parsed depth of %s',
    (text) => {
      const depth = depthOf(JSON.parse(text));
      expect(nestsDeeper(text, depth)).toBe(false);
      if (depth > 0) expect(nestsDeeper(text, depth - 1)).toBe(true);
    },
  );

  it('stops at the limit on a body nested 100,000 deep, and never throws on text that is not JSON', () => {
    expect(nestsDeeper('['.repeat(100_000), 16)).toBe(true);
    expect(nestsDeeper(']]]{{', 5)).toBe(false);
    expect(nestsDeeper('"unterminated [[[', 0)).toBe(false);
  });
});
