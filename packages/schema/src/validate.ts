/**
 * `validate(schema, value)` and `createValidator(schema)`: the errors of a value (the first 100,
 * then one entry saying how many more), each with a dotted path and a message a person can act
 * on; never a throw, whatever the value, and never the value itself in a message.
 *
 * @module
 */
import type { Static, TSchema } from 'typebox';
import { canGenerateCode, compilePlan } from './engine/compile.js';
import { collectErrors, run } from './engine/interpret.js';
import { plan } from './engine/plan.js';
import type { ValidationError } from './engine/errors.js';

export type { ValidationError } from './engine/errors.js';
export { canGenerateCode } from './engine/compile.js';

/**
 * The outcome of a validation: the value, typed, or its errors: at most 100, and when there were
 * more, a 101st entry `{ path: '', message: 'and N more errors' }`.
 */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly ValidationError[] };

/** How a validator runs. */
export interface ValidatorOptions {
  /**
   * `'auto'` (default): generate code where the runtime allows it, interpret otherwise.
   * `'never'`: always interpret (the path taken on edge runtimes that forbid `new Function`).
   */
  readonly codegen?: 'auto' | 'never' | undefined;
}

/** A reusable validator for one schema. */
export interface Validator<T> {
  /** True when this validator runs generated code, false when it interprets the schema. */
  readonly compiled: boolean;
  /** True when the value is valid; a type guard. Never throws. */
  check(value: unknown): value is T;
  /** The value, typed, or its errors (at most 100, then "and N more"). Never throws. */
  validate(value: unknown): ValidationResult<T>;
}

// Shown when reading the value itself throws (a throwing getter, a revoked proxy). Deliberately
// says nothing of the thrown error: its text could contain the value, and the value card data.
const UNREADABLE: readonly ValidationError[] = Object.freeze([
  Object.freeze({ path: '', message: 'could not be read: a property threw while it was inspected' }),
]);

/**
 * Creates a validator for a schema of this package (or any schema using the same JSON Schema
 * keywords: type, properties, required, additionalProperties, items, string and number bounds,
 * pattern, format, enum, const, allOf, anyOf, if/then/else).
 *
 * @throws TypeError when the schema uses a keyword this validator does not support; a rule is
 *   never silently ignored. Validating never throws.
 */
export function createValidator<S extends TSchema>(schema: S, options: ValidatorOptions = {}): Validator<Static<S>> {
  const root = plan(schema);
  const compiled = options.codegen !== 'never' && canGenerateCode();
  let errorsOf: (value: unknown) => ValidationError[] | null;
  let isValid: (value: unknown) => boolean;
  if (compiled) {
    const functions = compilePlan(root);
    errorsOf = functions.errors;
    isValid = functions.check;
  } else {
    errorsOf = (value) => collectErrors(root, value);
    isValid = (value) => run(root, value, '', null);
  }
  return {
    compiled,
    check(value: unknown): value is Static<S> {
      try {
        return isValid(value);
      } catch {
        return false;
      }
    },
    validate(value: unknown): ValidationResult<Static<S>> {
      let errors: ValidationError[] | null;
      try {
        errors = errorsOf(value);
      } catch {
        return { ok: false, errors: UNREADABLE };
      }
      return errors === null ? { ok: true, value: value as Static<S> } : { ok: false, errors };
    },
  };
}

// One validator per schema object, made on first use. Schemas are treated as immutable values.
const cache = new WeakMap<object, Validator<unknown>>();

/**
 * Validates a value against a schema: `{ ok: true, value }` or `{ ok: false, errors }` with the
 * errors of the value, each `{ path, message }`: at most 100, then a last entry
 * `{ path: '', message: 'and N more errors' }`, so a hostile body cannot make a huge list. Unknown
 * keys appear in paths cut to 64 characters and with runs of eight or more digits (spaces, dashes
 * and dots between them included) masked to their last four. The validator of each schema is
 * created on first use and kept. Never throws on any value (null, arrays, deep nesting, huge
 * strings, `__proto__` keys, throwing getters).
 *
 * @example
 * const result = validate(CreatePayinRequest, body);
 * if (!result.ok) for (const e of result.errors) console.log(`${e.path}: ${e.message}`);
 */
export function validate<S extends TSchema>(schema: S, value: unknown): ValidationResult<Static<S>> {
  let validator = cache.get(schema) as Validator<Static<S>> | undefined;
  if (validator === undefined) {
    validator = createValidator(schema);
    cache.set(schema, validator);
  }
  return validator.validate(value);
}
