// EXAMPLES: each example body passes its schema, through the validator of this run, and is frozen.
import { describe, expect, it } from 'vitest';
import { CardPushRequest, CreatePayinRequest, CreatePayinRequestV1, CreatePayoutRequest, EXAMPLES } from '../src/index.js';
import { expectValid } from './helpers.js';

describe('EXAMPLES', () => {
  it.each([
    ['createPayin', CreatePayinRequest],
    ['createPayinLegacy', CreatePayinRequestV1],
    ['createPayout', CreatePayoutRequest],
    ['cardPush', CardPushRequest],
  ] as const)('%s passes its schema', (name, schema) => {
    expectValid(schema, EXAMPLES[name]);
  });

  it("is frozen all the way down, so no test can change another's starting point", () => {
    expect(Object.isFrozen(EXAMPLES.createPayin.customer.address)).toBe(true);
    expect(() => {
      (EXAMPLES.createPayin.payment as { amount: number }).amount = 1;
    }).toThrow(TypeError);
  });
});
