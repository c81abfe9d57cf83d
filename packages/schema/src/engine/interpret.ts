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
  if (node.never !== undefined) return report(sink, path, node.never.message);
  if (node.type !== undefined && !node.type.names.some((t) => isType(t, value))) {
    return report(sink, path, node.type.message);
  }
  let ok = true;
  // Each failed rule: note it, and stop right away when only a yes/no answer is wanted.
  const fail = (at: string, message: string): boolean => {
    ok = false;
    report(sink, at, message);
    return sink === null;
  };
  // Each part below answers whether the value passed it. Without a sink, a part stops at its first
  // failure and so does this function; with one, every part reports all it finds.
  const failed = (): boolean => {
    ok = false;
    return sink === null;
  };

  if (typeof value === 'string') {
    if (node.string !== undefined && !runString(node.string, value, path, sink) && failed()) return false;
  } else if (typeof value === 'number' && node.number !== undefined) {
    for (const rule of node.number) {
      if (!compare(rule.op, value, rule.limit) && fail(path, rule.message)) return false;
    }
  }
  if (node.enum !== undefined && !node.enum.values.has(value)) {
    if (fail(path, node.enum.message)) return false;
  }
  if (node.const !== undefined && value !== node.const.value) {
    if (fail(path, node.const.message)) return false;
  }

  if (typeof value === 'object' && value !== null) {
    if (Array.isArray(value)) {
      if (node.array !== undefined && !runArray(node.array, value, path, sink) && failed()) return false;
    } else if (node.object !== undefined) {
      if (!runObject(node.object, value as Record<string, unknown>, path, sink) && failed()) return false;
    }
  }

  if (node.keywords !== undefined) {
    for (const keyword of node.keywords) {
      const failure = keyword.check(value);
      if (failure !== undefined && fail(failure.key === undefined ? path : joinPath(path, failure.key), failure.message)) return false;
    }
  }

  if (node.composition !== undefined && !runComposition(node.composition, value, path, sink) && failed()) return false;
  return ok;
}

/** A string's rules: its length in code points, its pattern, its formats. */
function runString(rules: NonNullable<PlanNode['string']>, value: string, path: string, sink: Sink): boolean {
  let ok = true;
  const fail = (message: string): boolean => {
    ok = false;
    report(sink, path, message);
    return sink === null;
  };
  const { minLength, maxLength, pattern } = rules;
  if (minLength !== undefined && value.length < minLength.limit * 2 && codePoints(value) < minLength.limit) {
    if (fail(minLength.message)) return false;
  }
  if (
    maxLength !== undefined &&
    value.length > maxLength.limit &&
    (value.length > maxLength.limit * 2 || codePoints(value) > maxLength.limit)
  ) {
    if (fail(maxLength.message)) return false;
  }
  if (pattern !== undefined && !pattern.regex.test(value)) {
    if (fail(pattern.message)) return false;
  }
  for (const format of rules.formats) {
    if (!format.definition.check(value) && fail(format.definition.message(value))) return false;
  }
  return ok;
}

/** An array's rules: how many items, and each item against the items' node. */
function runArray(rules: NonNullable<PlanNode['array']>, value: readonly unknown[], path: string, sink: Sink): boolean {
  let ok = true;
  const { minItems, maxItems, items } = rules;
  if (minItems !== undefined && value.length < minItems.limit) {
    ok = report(sink, path, minItems.message);
    if (sink === null) return false;
  }
  if (maxItems !== undefined && value.length > maxItems.limit) {
    ok = report(sink, path, maxItems.message);
    if (sink === null) return false;
  }
  if (items !== undefined) {
    for (let i = 0; i < value.length; i += 1) {
      if (!run(items, value[i], joinPath(path, i), sink)) {
        ok = false;
        if (sink === null) return false;
      }
    }
  }
  return ok;
}

/** An object's rules: its properties (required or not), and what it may have besides them. */
function runObject(rules: NonNullable<PlanNode['object']>, object: Record<string, unknown>, path: string, sink: Sink): boolean {
  let ok = true;
  const fail = (at: string, message: string): boolean => {
    ok = false;
    report(sink, at, message);
    return sink === null;
  };
  for (const property of rules.properties) {
    const child = object[property.key];
    const at = joinPath(path, property.key);
    if (child === undefined || !hasOwn.call(object, property.key)) {
      if (property.required && fail(at, property.requiredMessage)) return false;
    } else if (!run(property.node, child, at, sink)) {
      ok = false;
      if (sink === null) return false;
    }
  }
  for (const required of rules.otherRequired) {
    if (object[required.key] === undefined || !hasOwn.call(object, required.key)) {
      if (fail(joinPath(path, required.key), required.message)) return false;
    }
  }
  const additional = rules.additional;
  if (additional === 'allow') return ok;
  for (const key in object) {
    // A key set to undefined is absent, as JSON.stringify drops it: unknown or not, it is skipped.
    if (!hasOwn.call(object, key) || object[key] === undefined || rules.properties.some((p) => p.key === key)) continue;
    if (additional === 'forbid') {
      // Past the cap the error is only counted, so its path is not built.
      const full = sink !== null && sink.count >= MAX_ERRORS;
      if (fail(full ? '' : joinPath(path, pathKey(key)), rules.additionalMessage)) return false;
    } else if (!run(additional, object[key], joinPath(path, pathKey(key)), sink)) {
      ok = false;
      if (sink === null) return false;
    }
  }
  return ok;
}

/** allOf, anyOf and if/then/else. */
function runComposition(composition: NonNullable<PlanNode['composition']>, value: unknown, path: string, sink: Sink): boolean {
  let ok = true;
  for (const branch of composition.allOf) {
    if (!run(branch, value, path, sink)) {
      ok = false;
      if (sink === null) return false;
    }
  }
  const anyOf = composition.anyOf;
  if (anyOf !== undefined && !anyOf.branches.some((branch) => run(branch, value, path, null))) {
    ok = false;
    if (sink === null) return false;
    // Report the errors of the one branch made for this kind of value, when there is exactly one:
    // "-5" as an amount is told it must be greater than 0, not that it matches no form.
    const index = anyOf.branchByKind[kindOf(value)];
    const branch = index >= 0 ? anyOf.branches[index] : undefined;
    if (branch === undefined) report(sink, path, anyOf.message);
    else run(branch, value, path, sink);
  }
  if (composition.conditional !== undefined) {
    const { if: condition, then, else: otherwise } = composition.conditional;
    const next = run(condition, value, path, null) ? then : otherwise;
    if (next !== undefined && !run(next, value, path, sink)) {
      ok = false;
      if (sink === null) return false;
    }
  }
  return ok;
}
