// validate(): result shape, paths, the two validator paths, and never throwing on any input.
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import {
  canGenerateCode,
  CardPushRequest,
  createValidator,
  CreatePayinRequest,
  CreatePayinRequestV1,
  PayinCreateResponse,
  validate,
  WebhookPayload,
} from '../src/index.js';
import { chars, errorsOf, MODE, payinV1, payinV2, withPath } from './helpers.js';

describe(`validator path of this run: ${MODE}`, () => {
  it('uses generated code only where the runtime allows it', () => {
    expect(canGenerateCode()).toBe(MODE === 'compiled');
    expect(createValidator(CreatePayinRequest).compiled).toBe(MODE === 'compiled');
  });
  it('can be told never to generate code, and then agrees with the default', () => {
    const interpreted = createValidator(CreatePayinRequest, { codegen: 'never' });
    expect(interpreted.compiled).toBe(false);
    const body = withPath(withPath(payinV2(), 'customer.first_name', 'J'), 'customer.address.country', 'CA');
    expect(interpreted.validate(body)).toEqual(createValidator(CreatePayinRequest).validate(body));
  });
});

describe('validate()', () => {
  it('returns the value, typed, when valid', () => {
    const body = payinV2();
    const result = validate(CreatePayinRequest, body);
    expect(result).toEqual({ ok: true, value: body });
    if (result.ok) expect(result.value.customer.address.country).toBe('GB');
  });
  it('returns every error with a dotted path and a message', () => {
    const result = validate(CreatePayinRequest, withPath(payinV2(), 'customer.first_name', chars(81)));
    expect(result).toEqual({ ok: false, errors: [{ path: 'customer.first_name', message: 'must be at most 80 characters' }] });
  });
  it('names the missing property itself, not its parent', () => {
    expect(errorsOf(CreatePayinRequest, withPath(payinV2(), 'customer.email', undefined))).toEqual([
      { path: 'customer.email', message: 'is required' },
    ]);
  });
  it('takes a key set to undefined for absent, known or not, as JSON.stringify drops it', () => {
    // The bytes sent for such a body have no such key, so refusing it would refuse a valid request.
    expect(errorsOf(CreatePayinRequestV1, { ...payinV1(), method: undefined, extra: undefined })).toEqual([]);
    expect(errorsOf(CreatePayinRequestV1, { ...payinV1(), method: 'card' })).toEqual([
      { path: 'method', message: 'is not an allowed property' },
    ]);
    expect(errorsOf(CreatePayinRequest, { ...payinV2(), extra: null })).toEqual([{ path: 'extra', message: 'is not an allowed property' }]);
    expect(errorsOf(CreatePayinRequest, withPath(payinV2(), 'customer.address.unknown', undefined))).toEqual([]);
  });
  it('writes array indexes into the path (items.0.x)', () => {
    const List = Type.Object({ items: Type.Array(Type.Object({ x: Type.String({ maxLength: 2 }) })) });
    expect(errorsOf(List, { items: [{ x: 'abc' }, {}] })).toEqual([
      { path: 'items.0.x', message: 'must be at most 2 characters' },
      { path: 'items.1.x', message: 'is required' },
    ]);
  });
  it('counts length in code points', () => {
    const emoji = '😀'; // two UTF-16 units, one code point
    expect(errorsOf(CreatePayinRequest, withPath(payinV2(), 'customer.first_name', emoji.repeat(80)))).toEqual([]);
    expect(errorsOf(CreatePayinRequest, withPath(payinV2(), 'customer.first_name', emoji))).toEqual([
      { path: 'customer.first_name', message: 'must be at least 2 characters' },
    ]);
  });
  it('refuses a schema keyword it does not know, when the validator is made', () => {
    expect(() => createValidator(Type.String({ description: 'd', examples: ['x'], 'x-anything': 1 }))).not.toThrow();
    expect(() => createValidator({ type: 'string', dependentSchemas: {} } as never)).toThrow(/unsupported JSON Schema keyword/);
  });
});

describe('never throws, whatever the value', () => {
  const schemas = [CreatePayinRequest, CardPushRequest, PayinCreateResponse, WebhookPayload];
  const deep = (depth: number) => {
    let value: Record<string, unknown> = {};
    for (let i = 0; i < depth; i += 1) value = { customer: value, nested: value };
    return value;
  };
  const throwing = Object.defineProperty({}, 'customer', {
    enumerable: true,
    get: () => {
      throw new Error('4242424242424242');
    },
  });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cyclic: Record<string, unknown> = { id: 'x', status: 'new' };
  cyclic['self'] = cyclic;
  const polluted = JSON.parse('{"__proto__": {"customer": {"id": "x"}}, "constructor": {"prototype": {"polluted": true}}}') as unknown;
  const inherited = Object.create(payinV2()) as unknown;
  const values: unknown[] = [
    null,
    undefined,
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'x'.repeat(5_000_000),
    true,
    [],
    [payinV2()],
    Symbol('s'),
    10n,
    () => 1,
    new Date(0),
    new Map(),
    Object.create(null),
    deep(5000),
    throwing,
    revoked.proxy,
    cyclic,
    polluted,
    inherited,
    withPath(payinV2(), 'customer.first_name', 'x'.repeat(5_000_000)),
    withPath(payinV2(), 'webhook_url', `https://${'a'.repeat(1_000_000)} `),
    withPath(payinV2(), 'payment.amount', `${'1'.repeat(1_000_000)}x`),
  ];
  for (const schema of schemas) {
    it(`${String((schema as { title?: string }).title)}: every value gets a result`, () => {
      for (const value of values) {
        const result = validate(schema, value);
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) for (const e of result.errors) expect(typeof e.path).toBe('string');
      }
    });
  }
  it('does not let __proto__ or inherited properties count as the body', () => {
    expect(errorsOf(CreatePayinRequest, polluted)).toContainEqual({ path: 'customer', message: 'is required' });
    expect(errorsOf(CreatePayinRequest, polluted)).toContainEqual({ path: '__proto__', message: 'is not an allowed property' });
    expect(errorsOf(CreatePayinRequest, inherited)).toContainEqual({ path: 'payment', message: 'is required' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  it('reports a throwing getter without its text', () => {
    expect(validate(CreatePayinRequest, throwing)).toEqual({
      ok: false,
      errors: [{ path: '', message: 'could not be read: a property threw while it was inspected' }],
    });
    expect(createValidator(CreatePayinRequest).check(throwing)).toBe(false);
  });
  it('cuts and masks unknown keys in paths', () => {
    const errors = errorsOf(CardPushRequest, {
      payin_id: 'p',
      card: { pan: '4242424242424242', exp_month: '01', exp_year: '2030', csc: '123', '4111111111111111': 1, [chars(500)]: 1 },
    });
    expect(errors.map((e) => e.path)).toEqual(['card.****1111', `card.${chars(61)}...`]);
  });
  it('masks digit runs written with spaces, dashes and other separators, before cutting', () => {
    const card = (key: string) =>
      errorsOf(CardPushRequest, {
        payin_id: 'p',
        card: { pan: '4242424242424242', exp_month: '01', exp_year: '2030', csc: '123', [key]: 1 },
      }).map((e) => e.path);
    expect(card('4111 1111 1111 1111')).toEqual(['card.****1111']);
    expect(card('4111-1111-1111-1111')).toEqual(['card.****1111']);
    expect(card('pan:4111.1111_1111/1111 ok')).toEqual(['card.pan:****1111 ok']);
    expect(card('4111\u2013 1111')).toEqual(['card.4111\u2013 1111']); // two separators in a row split the run
    expect(card(`${chars(55)}4111111111111111`)).toEqual([`card.${chars(55)}****1111`]);
    expect(card(`${chars(58)}4111111111111111`)).toEqual([`card.${chars(58)}***...`]); // masked, then cut: no digit survives
    expect(card('order 1234567')).toEqual(['card.order 1234567']); // seven digits are not a card number
    for (const path of [...card('4111 1111 1111 1111'), ...card(`${chars(57)}4111 1111 1111 1111`)]) {
      expect(path.replace(/[^0-9]/g, '').length).toBeLessThanOrEqual(4);
    }
  });
  it('lists at most 100 errors, then one that says how many more there were', () => {
    const body: Record<string, unknown> = payinV2();
    for (let i = 0; i < 10_000; i += 1) body[`k${i}`] = i;
    const errors = errorsOf(CreatePayinRequest, body);
    expect(errors).toHaveLength(101);
    expect(errors.slice(0, 100).every((e, i) => e.path === `k${i}` && e.message === 'is not an allowed property')).toBe(true);
    expect(errors[100]).toEqual({ path: '', message: 'and 9900 more errors' });
    const one: Record<string, unknown> = payinV2();
    for (let i = 0; i < 101; i += 1) one[`k${i}`] = i;
    expect(errorsOf(CreatePayinRequest, one)[100]).toEqual({ path: '', message: 'and 1 more error' });
    const exactly: Record<string, unknown> = payinV2();
    for (let i = 0; i < 100; i += 1) exactly[`k${i}`] = i;
    expect(errorsOf(CreatePayinRequest, exactly)).toHaveLength(100);
  });
  it('counts, without building, the errors of 200 000 unknown keys', () => {
    const body: Record<string, unknown> = payinV2();
    for (let i = 0; i < 200_000; i += 1) body[`4111 1111 ${i}`] = i;
    const errors = errorsOf(CreatePayinRequest, body);
    expect(errors).toHaveLength(101);
    expect(errors[100]).toEqual({ path: '', message: 'and 199900 more errors' });
    expect(errors[0]?.path).toBe('****1110');
  }, 60_000); // building 200 000 keys is slow on a loaded machine; the point is that it ends, bounded
  it('caps the errors of arrays and nested objects the same way', () => {
    const List = Type.Object({ items: Type.Array(Type.Object({ x: Type.String() })) });
    const errors = errorsOf(List, { items: Array.from({ length: 250 }, () => ({})) });
    expect(errors).toHaveLength(101);
    expect(errors[99]).toEqual({ path: 'items.99.x', message: 'is required' });
    expect(errors[100]).toEqual({ path: '', message: 'and 150 more errors' });
  });
});
