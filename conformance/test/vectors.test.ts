// Loading and choosing vectors: the fixture and golden suites load, broken files are refused with
// the file and field named, and --category / --id choose what they say.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorError } from '../src/errors.js';
import { chosen, SelectionError, selectCases } from '../src/harness/selection.js';
import { loadSuite } from '../src/harness/vectors.js';
import { fixtureVectors, goldenVectors, tmp } from './helpers.js';

describe('loadSuite', () => {
  it('loads the fixture suite', () => {
    const s = loadSuite(fixtureVectors);
    expect(s.categories.map((c) => c.category)).toContain('verify_webhook');
    expect(s.categories.every((c) => c.vectors.length > 0)).toBe(true);
  });
  it('loads the golden suite', () => {
    const s = loadSuite(goldenVectors);
    expect(s.suite).toBe('pay-signature-vectors');
    expect(s.categories.length).toBeGreaterThanOrEqual(7);
  });
  it('names the file and field of a broken vector', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'a.json'),
      JSON.stringify({
        suite: 's',
        suite_version: '1',
        protocol: 1,
        category: 'a',
        command: 'sign_request',
        vectors: [{ id: 'a/1', description: 'd', input: {}, expected: {} }],
      }),
    );
    expect(() => loadSuite(dir)).toThrow(/a\.json vectors\[0\] \(a\/1\): "expected.headers"/);
    writeFileSync(
      join(dir, 'a.json'),
      JSON.stringify({ suite: 's', suite_version: '1', protocol: 2, category: 'a', command: 'sign_request', vectors: [] }),
    );
    expect(() => loadSuite(dir)).toThrow(/protocol 2/);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(() => loadSuite(empty)).toThrow(VectorError);
  });
  it('selects categories and ids, with wildcards, and refuses selectors that match nothing', () => {
    const s = loadSuite(fixtureVectors);
    expect(
      selectCases(s, { categories: ['verify_*'] })
        .categories.map((c) => c.category)
        .sort(),
    ).toEqual(['verify_request', 'verify_webhook']);
    const one = selectCases(s, { ids: ['verify_webhook/valid'] });
    expect(one.categories.flatMap((c) => c.vectors.map((v) => v.id))).toEqual(['verify_webhook/valid']);
    expect(() => selectCases(s, { categories: ['nope'] })).toThrow(/no category/);
    // Every pattern must match: one typo among good ones is still a typo, whatever else matched.
    expect(() => selectCases(s, { ids: ['verify_webhook/valid', 'verify_webhook/vaild'] })).toThrow(SelectionError);
    expect(() => selectCases(s, { ids: ['typo*'] })).toThrow(/no vector id matches "typo\*"/);
  });
  it('chooses names with one matcher for every mode: exact, or `*` as any run of characters', () => {
    const names = ['client_bytes/get-payin', 'client_bytes/get-payin-by-reference', 'client_errors/not-found'];
    expect([...chosen(names, ['client_bytes/get-payin'], 'id')]).toEqual(['client_bytes/get-payin']);
    expect([...chosen(names, ['*get-payin*'], 'id')]).toEqual(names.slice(0, 2));
    expect([...chosen(names, [], 'id')]).toEqual(names);
    // Regular-expression characters are themselves.
    expect(() => chosen(names, ['client_bytes/get.payin'], 'id')).toThrow(/no id matches "client_bytes\/get\.payin"/);
  });
});
