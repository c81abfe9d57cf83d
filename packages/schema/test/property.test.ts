// Property-based tests: mutate valid bodies anywhere; the validator never throws, always names a
// path at or around the mutation, and agrees with Ajv on the exported JSON Schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  CardPushRequest,
  CreatePayinRequest,
  CreatePayinRequestV1,
  CreatePayoutRequest,
  CreatePayoutRequestPaymentPage,
  customFormats,
  customKeywords,
  ERROR_MESSAGE,
  jsonSchemas,
  PayinCreateResponse,
  PayinLookupResponse,
  PayoutCreateResponse,
  PayoutLookupResponse,
  type SchemaName,
  validate,
  WebhookPayload,
} from '../src/index.js';
import {
  cardPush,
  clone,
  withCodegen,
  payinCreated,
  payinLookup,
  payinV1,
  payinV2,
  payout,
  payoutCreated,
  payoutLookup,
} from './helpers.js';

const documents = jsonSchemas();
// Ajv compiles to code, so in the emulated edge run it is built with code generation restored.
const ajvCheck = (name: SchemaName) =>
  withCodegen(() => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    ajvFormats.default(ajv);
    ajv.addKeyword(ERROR_MESSAGE);
    for (const [format, check] of Object.entries(customFormats)) ajv.addFormat(format, check);
    for (const [keyword, check] of Object.entries(customKeywords)) ajv.addKeyword({ keyword, validate: check, errors: false });
    return ajv.compile(documents[name]);
  });

const cases: [SchemaName, TSchema, () => unknown][] = [
  ['CreatePayinRequest', CreatePayinRequest, payinV2],
  ['CreatePayinRequestV1', CreatePayinRequestV1, payinV1],
  ['CreatePayoutRequest', CreatePayoutRequest, payout],
  ['CreatePayoutRequestPaymentPage', CreatePayoutRequestPaymentPage, payout],
  ['CardPushRequest', CardPushRequest, cardPush],
  ['PayinCreateResponse', PayinCreateResponse, payinCreated],
  ['PayinLookupResponse', PayinLookupResponse, payinLookup],
  ['PayoutCreateResponse', PayoutCreateResponse, payoutCreated],
  ['PayoutLookupResponse', PayoutLookupResponse, payoutLookup],
  ['WebhookPayload', WebhookPayload, () => ({ id: 'pi_1', reference_id: 'r', status: 'new' })],
];

/** Every path of a JSON body: objects and leaves. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const own = Object.keys(value).flatMap((k) => paths((value as Record<string, unknown>)[k], [...prefix, k]));
  return prefix.length === 0 ? own : [prefix, ...own];
}

type Mutation = { kind: 'delete' } | { kind: 'set'; value: unknown } | { kind: 'add'; key: string; value: unknown };

function mutate(body: unknown, path: string[], mutation: Mutation): unknown {
  const copy = clone(body) as Record<string, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (mutation.kind === 'delete') delete parent[last];
  else if (mutation.kind === 'set') parent[last] = mutation.value;
  else {
    const target = parent[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      // defineProperty, so `__proto__` becomes an own key as JSON.parse makes it, not a prototype.
      Object.defineProperty(target, mutation.key, { value: mutation.value, enumerable: true, writable: true, configurable: true });
    } else parent[last] = mutation.value;
  }
  return copy;
}

// The error names the mutated field, something inside or around it, or a sibling: conditional
// rules tie siblings together (setting country to CA makes a missing state the error).
const related = (errorPath: string, mutated: string) => {
  const parent = mutated.includes('.') ? mutated.slice(0, mutated.lastIndexOf('.')) : '';
  return (
    errorPath === mutated ||
    errorPath.startsWith(`${mutated}.`) ||
    mutated.startsWith(`${errorPath}.`) ||
    errorPath === '' ||
    mutated === '' ||
    (parent === '' ? !errorPath.includes('.') : errorPath.startsWith(`${parent}.`) && !errorPath.slice(parent.length + 1).includes('.'))
  );
};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ kind: 'delete' }),
  fc.jsonValue({ maxDepth: 2 }).map<Mutation>((value) => ({ kind: 'set', value })),
  fc
    .oneof(fc.constantFrom('', 'a', '__proto__', 'constructor', 'toString', 'x'.repeat(200)), fc.string())
    .chain((key) => fc.jsonValue({ maxDepth: 1 }).map<Mutation>((value) => ({ kind: 'add', key, value }))),
  fc
    .constantFrom(
      '',
      ' ',
      'CA',
      'ON',
      '+1',
      '0',
      '-1',
      '1e3',
      '2001-02-29',
      '2999-01-01',
      'http://x.example/',
      'https://x.example/',
      '4242424242424241',
      '1.2.3.4',
      // Money and email mistakes: too many decimals, codes that are not ISO 4217 in use, non-addresses.
      0.001,
      1e-7,
      0.1 + 0.2,
      12345678901234568,
      -0,
      '10.505',
      'JPY',
      'KWD',
      'XAU',
      'ABC',
      'jane@shop',
      'a@b.example',
    )
    .map<Mutation>((value) => ({ kind: 'set', value })),
);

for (const [name, schema, fixture] of cases) {
  describe(`${name} under random mutation`, () => {
    const all = paths(fixture());
    const check = ajvCheck(name);
    it('never throws, always names a related path, and agrees with Ajv', () => {
      fc.assert(
        fc.property(fc.constantFrom(...all), mutation, (path, change) => {
          const body = mutate(fixture(), path, change);
          const result = validate(schema, body);
          expect(result.ok).toBe(check(body));
          if (!result.ok) {
            expect(result.errors.length).toBeGreaterThan(0);
            for (const error of result.errors) {
              expect(typeof error.path).toBe('string');
              expect(error.message.length).toBeGreaterThan(0);
            }
            const mutated = path.join('.');
            expect(
              result.errors.some((e) => related(e.path, mutated)),
              JSON.stringify(result.errors),
            ).toBe(true);
          }
        }),
        { numRuns: 400 },
      );
    });
  });
}
