/**
 * The interpreted validator: walks the plan for every value. Used where the runtime forbids code
 * generation (edge runtimes whose Content-Security-Policy has no `unsafe-eval`), or on request.
 * Same plan, same messages, same order of errors as the compiled validator.
 *
 * @module
 */
import type { PlanNode } from './plan.js';
import { codePoints, hasOwn, joinPath, kindOf, MAX_ERRORS, moreErrors, pathKey, type ValidationError } from './errors.js';

/** Where errors go: the first MAX_ERRORS kept, the rest counted. */
interface Collector {
  readonly errors: ValidationError[];
  count: number;
}

/** Collects errors when given a collector; stops at the first failure when given `null`. */
type Sink = Collector | null;

/** Runs `node` on `value` and returns its errors (cut at MAX_ERRORS, with a last "and N more"), or null. */
export function collectErrors(node: PlanNode, value: unknown): ValidationError[] | null {
  const sink: Collector = { errors: [], count: 0 };
  run(node, value, '', sink);
  if (sink.count === 0) return null;
  if (sink.count > MAX_ERRORS) sink.errors.push(moreErrors(sink.count - MAX_ERRORS));
  return sink.errors;
}

function isType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return false;
  }
}

function report(sink: Sink, path: string, message: string): false {
  if (sink !== null && sink.count++ < MAX_ERRORS) sink.errors.push({ path, message });
  return false;
}

function compare(op: string, value: number, limit: number): boolean {
  switch (op) {
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
    case '<':
      return value < limit;
    default:
      return value <= limit;
  }
}

/** Validates `value` against `node`; returns true when valid. With a sink, keeps going to report all. */
export function run(node: PlanNode, value: unknown, path: string, sink: Sink): boolean {
  if (node.never) return report(sink, path, node.typeMessage);
  if (node.types !== undefined && !node.types.some((t) => isType(t, value))) {
    return report(sink, path, node.typeMessage);
  }
  let ok = true;
  // Each failed rule: note it, and stop right away when only a yes/no answer is wanted.
  const fail = (at: string, message: string): boolean => {
    ok = false;
    report(sink, at, message);
    return sink === null;
  };

  if (typeof value === 'string') {
    if (node.minLength !== undefined && value.length < node.minLength * 2 && codePoints(value) < node.minLength) {
      if (fail(path, node.minLengthMessage)) return false;
    }
    if (
      node.maxLength !== undefined &&
      value.length > node.maxLength &&
      (value.length > node.maxLength * 2 || codePoints(value) > node.maxLength)
    ) {
      if (fail(path, node.maxLengthMessage)) return false;
    }
    if (node.pattern !== undefined && !node.pattern.test(value)) {
      if (fail(path, node.patternMessage)) return false;
    }
    for (const format of node.formats) {
      if (!format.definition.check(value) && fail(path, format.definition.message(value))) return false;
    }
  } else if (typeof value === 'number') {
    for (const rule of node.numberRules) {
      if (!compare(rule.op, value, rule.limit) && fail(path, rule.message)) return false;
    }
  }
  if (node.enumSet !== undefined && !node.enumSet.has(value)) {
    if (fail(path, node.enumMessage)) return false;
  }
  if (node.hasConst && value !== node.constValue) {
    if (fail(path, node.constMessage)) return false;
  }

  if (typeof value === 'object' && value !== null) {
    if (Array.isArray(value)) {
      if (node.minItems !== undefined && value.length < node.minItems && fail(path, node.minItemsMessage)) return false;
      if (node.maxItems !== undefined && value.length > node.maxItems && fail(path, node.maxItemsMessage)) return false;
      if (node.items !== undefined) {
        for (let i = 0; i < value.length; i += 1) {
          if (!run(node.items, value[i], joinPath(path, i), sink)) {
            ok = false;
            if (sink === null) return false;
          }
        }
      }
    } else {
      const object = value as Record<string, unknown>;
      for (const property of node.properties) {
        const child = object[property.key];
        const at = joinPath(path, property.key);
        if (child === undefined || !hasOwn.call(object, property.key)) {
          if (property.required && fail(at, property.requiredMessage)) return false;
        } else if (!run(property.node, child, at, sink)) {
          ok = false;
          if (sink === null) return false;
        }
      }
      for (const property of node.otherRequired) {
        if (object[property.key] === undefined || !hasOwn.call(object, property.key)) {
          if (fail(joinPath(path, property.key), property.requiredMessage)) return false;
        }
      }
      if (node.additional !== 'allow') {
        for (const key in object) {
          // A key set to undefined is absent, as JSON.stringify drops it: unknown or not, it is skipped.
          if (!hasOwn.call(object, key) || object[key] === undefined || node.properties.some((p) => p.key === key)) continue;
          if (node.additional === 'forbid') {
            // Past the cap the error is only counted, so its path is not built.
            const full = sink !== null && sink.count >= MAX_ERRORS;
            if (fail(full ? '' : joinPath(path, pathKey(key)), node.additionalMessage)) return false;
          } else if (!run(node.additional, object[key], joinPath(path, pathKey(key)), sink)) {
            ok = false;
            if (sink === null) return false;
          }
        }
      }
    }
  }

  for (const branch of node.allOf) {
    if (!run(branch, value, path, sink)) {
      ok = false;
      if (sink === null) return false;
    }
  }
  if (node.anyOf !== undefined && !node.anyOf.some((branch) => run(branch, value, path, null))) {
    ok = false;
    if (sink === null) return false;
    // Report the errors of the one branch made for this kind of value, when there is exactly one:
    // "-5" as an amount is told it must be greater than 0, not that it matches no form.
    const index = node.anyOfBranchByKind[kindOf(value)];
    const branch = index >= 0 ? node.anyOf[index] : undefined;
    if (branch === undefined) report(sink, path, node.anyOfMessage);
    else run(branch, value, path, sink);
  }
  if (node.conditional !== undefined) {
    const { if: condition, then, else: otherwise } = node.conditional;
    const next = run(condition, value, path, null) ? then : otherwise;
    if (next !== undefined && !run(next, value, path, sink)) {
      ok = false;
      if (sink === null) return false;
    }
  }
  return ok;
}
