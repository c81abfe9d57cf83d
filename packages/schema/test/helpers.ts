import type { TSchema } from 'typebox';
import { expect } from 'vitest';
import { createValidator, type ValidationError } from '../src/index.js';

/** Which validator this run exercises: set per vitest project. */
export const MODE = process.env['PAY_SCHEMA_MODE'] === 'interpreted' ? 'interpreted' : 'compiled';

/** Errors of a value (empty when valid), through the default validator of this run. */
export function errorsOf(schema: TSchema, value: unknown): readonly ValidationError[] {
  const result = createValidator(schema).validate(value);
  return result.ok ? [] : result.errors;
}

/** Asserts the value is valid. */
export function expectValid(schema: TSchema, value: unknown): void {
  expect(errorsOf(schema, value)).toEqual([]);
  expect(createValidator(schema).check(value)).toBe(true);
}

/** Asserts an error at exactly `path` whose message contains `fragment`. */
export function expectError(schema: TSchema, value: unknown, path: string, fragment: string): void {
  const errors = errorsOf(schema, value);
  expect(errors.length, `expected an error at ${path}`).toBeGreaterThan(0);
  expect(errors).toContainEqual({ path, message: expect.stringContaining(fragment) });
  expect(createValidator(schema).check(value)).toBe(false);
}

/** Deep copy of a JSON body. */
export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A copy of `body` with the dotted `path` set to `value`, or removed when `value` is `REMOVE`. */
export const REMOVE = Symbol('remove');
export function withPath<T>(body: T, path: string, value: unknown): T {
  const copy = clone(body) as Record<string, unknown>;
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = keys[keys.length - 1] as string;
  if (value === REMOVE) delete target[last];
  else target[last] = value;
  return copy as T;
}

/** A string of `n` characters. */
export const chars = (n: number, char = 'a'): string => char.repeat(n);

export function payinV2() {
  return {
    reference_id: 'order-1001',
    payment: { amount: 10.5, currency: 'EUR' },
    method: 'card',
    customer: {
      id: 'cust-42',
      email: 'jane@shop.example',
      first_name: 'Jane',
      last_name: 'Doe',
      phone: { country_code: '+44', number: '7700900123' },
      date_of_birth: '1990-02-28',
      address: {
        addr_line_1: '221B Baker Street',
        addr_line_2: 'Flat 2',
        city: 'London',
        state: 'Greater London',
        zip: 'NW1 6XE',
        country: 'GB',
      },
    },
    browser_data: { user_agent: 'Mozilla/5.0 (X11; Linux x86_64)', ip_address: '203.0.113.7' },
    webhook_url: 'https://shop.example/hooks/pay',
    redirect_urls: {
      fail: 'https://shop.example/pay/fail',
      success: 'https://shop.example/pay/success',
      in_progress: 'https://shop.example/pay/wait',
    },
    language: 'en',
  };
}

export function payinV1() {
  const body = payinV2() as Record<string, unknown> & ReturnType<typeof payinV2>;
  const { method: _m, ...rest } = body;
  const { state: _s, ...address } = body.customer.address;
  const { in_progress: _i, ...redirects } = body.redirect_urls;
  return { ...rest, customer: { ...body.customer, address }, redirect_urls: redirects };
}

export function payout() {
  return {
    reference_id: 'payout-7',
    payment: { amount: '125.00', currency: 'CAD' },
    customer: {
      id: 'cust-42',
      phone: { number: '5550100', country_code: '+1' },
      email: 'jane@shop.example',
      last_name: 'Doe',
      first_name: 'Jane',
    },
    webhook_url: 'https://shop.example/hooks/pay',
    redirect_urls: { success: 'https://shop.example/out/ok', fail: 'https://shop.example/out/ko' },
  };
}

export function cardPush() {
  return {
    payin_id: 'pi_123',
    card: { pan: '4242424242424242', exp_month: '09', exp_year: '2030', csc: '123' },
  };
}

const created = {
  id: 'pi_123',
  reference_id: 'order-1001',
  status: 'new',
  payment: { amount: 10.5, currency: 'EUR' },
  fee: null,
  created_at: '2024-05-01T12:30:45.123456',
  updated_at: '2024-05-01T12:30:45.123456',
  expires_at: '2024-05-01T13:30:45.123456',
  error_code: null,
  error_message: null,
  next_action: { type: 'redirect', url: 'https://pay.example/page/pi_123' },
};

export function payinCreated() {
  return { ...clone(created), method: 'card' };
}

export function payinLookup() {
  const { next_action: _n, ...rest } = clone(created);
  return { ...rest, status: 'executed', fee: { amount: 0.3, currency: 'EUR' }, language: 'en' };
}

export function payoutCreated() {
  return clone(created);
}

export function payoutLookup() {
  const { next_action: _n, ...rest } = clone(created);
  return { ...rest, status: 'executed', fee: { amount: 0, currency: 'EUR' } };
}

/**
 * Runs `make` with code generation available, even in the emulated edge runtime. Used only to
 * build the Ajv reference validators; this package's own validator is never built inside it.
 */
export function withCodegen<T>(make: () => T): T {
  const real = (globalThis as Record<string, unknown>)['__payRealFunction'] as FunctionConstructor | undefined;
  if (real === undefined) return make();
  const patched = globalThis.Function;
  globalThis.Function = real;
  try {
    return make();
  } finally {
    globalThis.Function = patched;
  }
}

/** {@link withCodegen} for a promise: code generation stays available until it settles. */
export async function withCodegenAsync<T>(make: () => Promise<T>): Promise<T> {
  const real = (globalThis as Record<string, unknown>)['__payRealFunction'] as FunctionConstructor | undefined;
  if (real === undefined) return make();
  const patched = globalThis.Function;
  globalThis.Function = real;
  try {
    return await make();
  } finally {
    globalThis.Function = patched;
  }
}
