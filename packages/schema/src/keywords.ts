/**
 * The keywords this package adds to JSON Schema, by name: rules that no standard keyword can
 * state, written into the schemas as plain data. Both validators of this package look them up
 * here (as they look up formats in `formats.ts`); other validators are taught them with
 * {@link customKeywords}. Every other `x-` keyword is an annotation.
 *
 * @module
 */
import { type KeywordCheck, MONEY_KEYWORD, moneyCheck } from './money-rule.js';

export type { KeywordCheck } from './money-rule.js';

/**
 * Each keyword's builder: from the keyword's value in a schema to the check of the value it
 * applies to. A builder throws a TypeError for a keyword value it cannot use, so a malformed rule
 * fails when the validator is made.
 */
export const KEYWORDS: Readonly<Record<string, (spec: unknown) => KeywordCheck>> = Object.freeze({
  [MONEY_KEYWORD]: moneyCheck,
});

// One check per keyword value, built on first use by another validator.
const built = new WeakMap<object, KeywordCheck>();

function predicate(build: (spec: unknown) => KeywordCheck) {
  return (spec: unknown, value: unknown): boolean => {
    let check = typeof spec === 'object' && spec !== null ? built.get(spec) : undefined;
    if (check === undefined) {
      check = build(spec);
      if (typeof spec === 'object' && spec !== null) built.set(spec, check);
    }
    return check(value) === undefined;
  };
}

/**
 * This package's own keyword as a plain predicate `(keywordValue, data) => boolean`, in the shape
 * Ajv's `validate` keywords take, so another validator can check the exported JSON Schema the same
 * way: `ajv.addKeyword({ keyword: 'x-pay-money', validate: customKeywords['x-pay-money'], errors: false })`.
 */
export const customKeywords: Readonly<Record<typeof MONEY_KEYWORD, (spec: unknown, value: unknown) => boolean>> = Object.freeze({
  [MONEY_KEYWORD]: predicate(moneyCheck),
});
