/**
 * The compiled validator: generates one JavaScript function per plan, so validating a body is
 * straight-line code with every message and path already a string constant. Generated code only
 * ever contains identifiers of its own and JSON string literals; regular expressions, sets and
 * format checkers are passed in as an array, never written into the source.
 *
 * @module
 */
import type { AnyOfRule, ArrayRules, ObjectRules, PlanNode, StringRules, TypeName, ValueKind } from './plan.js';
import { VALUE_KINDS } from './plan.js';
import { codePoints, hasOwn, kindOf, MAX_ERRORS, moreErrors, pathKey, type ValidationError } from './errors.js';

/** A path known when generating (`const`) or computed while validating (`expr`). */
type Path = { readonly const: string } | { readonly expr: string };

/** Collect every error, or answer yes/no by clearing `flag` and leaving the block `label`. */
type Mode = { readonly collect: true } | { readonly collect: false; readonly flag: string; readonly label: string };

const COLLECT: Mode = { collect: true };
const lit = (text: string): string => JSON.stringify(text);

class Generator {
  readonly externals: unknown[] = [];
  private counter = 0;

  id(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  external(value: unknown): string {
    this.externals.push(value);
    return `X[${this.externals.length - 1}]`;
  }

  pathCode(path: Path): string {
    return 'const' in path ? lit(path.const) : path.expr;
  }

  child(path: Path, key: string): Path {
    if ('const' in path) return { const: path.const === '' ? key : `${path.const}.${key}` };
    return { expr: `${path.expr} + ${lit(`.${key}`)}` };
  }

  dynamicChild(path: Path, keyExpr: string): Path {
    if ('const' in path) return { expr: path.const === '' ? `("" + ${keyExpr})` : `${lit(`${path.const}.`)} + ${keyExpr}` };
    return { expr: `${path.expr} + "." + ${keyExpr}` };
  }

  fail(mode: Mode, path: Path, messageCode: string): string {
    // Past MAX_ERRORS an error is only counted: its path and message are never even built.
    if (mode.collect)
      return `{ if (N++ < ${MAX_ERRORS}) (E || (E = [])).push({ path: ${this.pathCode(path)}, message: ${messageCode} }); }`;
    return `{ ${mode.flag} = false; break ${mode.label}; }`;
  }

  typeCondition(type: TypeName, v: string): string {
    switch (type) {
      case 'string':
        return `typeof ${v} === "string"`;
      case 'number':
        return `(typeof ${v} === "number" && Number.isFinite(${v}))`;
      case 'integer':
        return `Number.isInteger(${v})`;
      case 'boolean':
        return `typeof ${v} === "boolean"`;
      case 'null':
        return `${v} === null`;
      case 'object':
        return `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`;
      case 'array':
        return `Array.isArray(${v})`;
    }
  }

  /** Code answering "does `v` satisfy `node`?" into a fresh flag; returns [code, flag]. */
  test(node: PlanNode, v: string, path: Path): [string, string] {
    const flag = this.id('ok');
    const label = this.id('L');
    const body = this.node(node, v, path, { collect: false, flag, label });
    return [`let ${flag} = true; ${label}: { ${body} }`, flag];
  }

  node(node: PlanNode, v: string, path: Path, mode: Mode): string {
    if (node.never !== undefined) return this.fail(mode, path, lit(node.never.message));
    const parts: string[] = [];
    const only = node.type?.names.length === 1 ? node.type.names[0] : undefined;

    if (node.string !== undefined) {
      const strings = this.stringRules(node.string, v, path, mode);
      parts.push(only === 'string' ? strings : `if (typeof ${v} === "string") { ${strings} }`);
    }
    if (node.number !== undefined) {
      const numbers = node.number.map(
        (rule) => `if (!(${v} ${rule.op} ${String(rule.limit)})) ${this.fail(mode, path, lit(rule.message))}`,
      );
      parts.push(only === 'number' || only === 'integer' ? numbers.join('\n') : `if (typeof ${v} === "number") { ${numbers.join('\n')} }`);
    }
    if (node.enum !== undefined) {
      parts.push(`if (!${this.external(node.enum.values)}.has(${v})) ${this.fail(mode, path, lit(node.enum.message))}`);
    }
    if (node.const !== undefined) {
      parts.push(`if (${v} !== ${this.external(node.const.value)}) ${this.fail(mode, path, lit(node.const.message))}`);
    }

    if (node.object !== undefined) {
      const objects = this.objectRules(node.object, v, path, mode);
      parts.push(only === 'object' ? objects : `if (typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})) { ${objects} }`);
    }
    if (node.array !== undefined) {
      const arrays = this.arrayRules(node.array, v, path, mode);
      parts.push(only === 'array' ? arrays : `if (Array.isArray(${v})) { ${arrays} }`);
    }

    if (node.keywords !== undefined) {
      for (const keyword of node.keywords) {
        const r = this.id('r');
        const child = this.pathCode(this.dynamicChild(path, `${r}.key`));
        const at = { expr: `(${r}.key === undefined ? ${this.pathCode(path)} : ${child})` };
        parts.push(
          `{ const ${r} = ${this.external(keyword.check)}(${v}); if (${r} !== undefined) ${this.fail(mode, at, `${r}.message`)} }`,
        );
      }
    }

    const composition = node.composition;
    if (composition !== undefined) {
      for (const branch of composition.allOf) parts.push(this.node(branch, v, path, mode));
      if (composition.anyOf !== undefined) parts.push(this.anyOf(composition.anyOf, v, path, mode));
      if (composition.conditional !== undefined) {
        const { if: condition, then, else: otherwise } = composition.conditional;
        const [code, flag] = this.test(condition, v, path);
        const thenCode = then === undefined ? '' : this.node(then, v, path, mode);
        const elseCode = otherwise === undefined ? '' : this.node(otherwise, v, path, mode);
        parts.push(`{ ${code} if (${flag}) { ${thenCode} } else { ${elseCode} } }`);
      }
    }

    const body = parts.join('\n');
    if (node.type === undefined) return body;
    const condition = node.type.names.map((t) => this.typeCondition(t, v)).join(' || ');
    return `if (!(${condition})) ${this.fail(mode, path, lit(node.type.message))} else { ${body} }`;
  }

  stringRules(rules: StringRules, v: string, path: Path, mode: Mode): string {
    const out: string[] = [];
    if (rules.minLength !== undefined) {
      const n = rules.minLength.limit;
      out.push(`if (${v}.length < ${n * 2} && CP(${v}) < ${n}) ${this.fail(mode, path, lit(rules.minLength.message))}`);
    }
    if (rules.maxLength !== undefined) {
      const n = rules.maxLength.limit;
      out.push(
        `if (${v}.length > ${n} && (${v}.length > ${n * 2} || CP(${v}) > ${n})) ${this.fail(mode, path, lit(rules.maxLength.message))}`,
      );
    }
    if (rules.pattern !== undefined) {
      out.push(`if (!${this.external(rules.pattern.regex)}.test(${v})) ${this.fail(mode, path, lit(rules.pattern.message))}`);
    }
    for (const format of rules.formats) {
      const def = this.external(format.definition);
      out.push(`if (!${def}.check(${v})) ${this.fail(mode, path, `${def}.message(${v})`)}`);
    }
    return out.join('\n');
  }

  objectRules(rules: ObjectRules, v: string, path: Path, mode: Mode): string {
    const out: string[] = [];
    for (const property of rules.properties) {
      const child = this.id('v');
      const at = this.child(path, property.key);
      const key = lit(property.key);
      const missing = property.required ? this.fail(mode, at, lit(property.requiredMessage)) : '';
      out.push(
        `{ const ${child} = ${v}[${key}]; if (${child} === undefined || !H.call(${v}, ${key})) { ${missing} } else { ${this.node(property.node, child, at, mode)} } }`,
      );
    }
    for (const required of rules.otherRequired) {
      const key = lit(required.key);
      out.push(
        `if (${v}[${key}] === undefined || !H.call(${v}, ${key})) ${this.fail(mode, this.child(path, required.key), lit(required.message))}`,
      );
    }
    if (rules.additional !== 'allow') {
      const k = this.id('k');
      const known = rules.properties.map((p) => `case ${lit(p.key)}:`).join(' ');
      const skip = known === '' ? '' : `switch (${k}) { ${known} continue; }`;
      const at = this.dynamicChild(path, `K(${k})`);
      let check: string;
      if (rules.additional === 'forbid') {
        check = this.fail(mode, at, lit(rules.additionalMessage));
      } else {
        const child = this.id('v');
        check = `const ${child} = ${v}[${k}]; ${this.node(rules.additional, child, at, mode)}`;
      }
      // A key set to undefined is absent, as JSON.stringify drops it: unknown or not, it is skipped.
      out.push(`for (const ${k} in ${v}) { ${skip} if (!H.call(${v}, ${k}) || ${v}[${k}] === undefined) continue; ${check} }`);
    }
    return out.join('\n');
  }

  arrayRules(rules: ArrayRules, v: string, path: Path, mode: Mode): string {
    const out: string[] = [];
    if (rules.minItems !== undefined) {
      out.push(`if (${v}.length < ${rules.minItems.limit}) ${this.fail(mode, path, lit(rules.minItems.message))}`);
    }
    if (rules.maxItems !== undefined) {
      out.push(`if (${v}.length > ${rules.maxItems.limit}) ${this.fail(mode, path, lit(rules.maxItems.message))}`);
    }
    if (rules.items !== undefined) {
      const i = this.id('i');
      const child = this.id('v');
      const body = this.node(rules.items, child, this.dynamicChild(path, i), mode);
      out.push(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${child} = ${v}[${i}]; ${body} }`);
    }
    return out.join('\n');
  }

  anyOf(rule: AnyOfRule, v: string, path: Path, mode: Mode): string {
    const matched = this.id('any');
    const tries = rule.branches.map((branch) => {
      const [code, flag] = this.test(branch, v, path);
      return `if (!${matched}) { ${code} if (${flag}) ${matched} = true; }`;
    });
    let onFailure: string;
    if (!mode.collect) {
      onFailure = this.fail(mode, path, '""');
    } else {
      // Same choice as the interpreter: the errors of the only branch made for this kind of value.
      const cases = new Map<number, ValueKind[]>();
      for (const kind of VALUE_KINDS) {
        const index = rule.branchByKind[kind];
        if (index >= 0) cases.set(index, [...(cases.get(index) ?? []), kind]);
      }
      const arms = [...cases].map(([index, kinds]) => {
        const branch = rule.branches[index] as PlanNode;
        return `${kinds.map((k) => `case ${lit(k)}:`).join(' ')} { ${this.node(branch, v, path, mode)} break; }`;
      });
      onFailure = `switch (KIND(${v})) { ${arms.join('\n')} default: ${this.fail(mode, path, lit(rule.message))} }`;
    }
    return `{ let ${matched} = false; ${tries.join('\n')} if (!${matched}) { ${onFailure} } }`;
  }
}

/** A compiled validator: `errors` returns null for a valid value, `check` a boolean. */
export interface CompiledFunctions {
  readonly errors: (value: unknown) => ValidationError[] | null;
  readonly check: (value: unknown) => boolean;
  /** The generated source, for inspection. */
  readonly source: string;
}

/**
 * Generates the validator of a plan. Throws when the runtime forbids code generation; callers
 * check {@link canGenerateCode} first.
 */
export function compilePlan(root: PlanNode): CompiledFunctions {
  const generator = new Generator();
  const collect = generator.node(root, 'v0', { const: '' }, COLLECT);
  const [test, flag] = generator.test(root, 'v0', { const: '' });
  const source = [
    `"use strict";`,
    `const errors = function (v0) { let E = null, N = 0; ${collect}\n if (N > ${MAX_ERRORS}) E.push(MORE(N - ${MAX_ERRORS})); return E; };`,
    `const check = function (v0) { ${test}\n return ${flag}; };`,
    `return { errors, check };`,
  ].join('\n');
  // The Function constructor is the whole point here: the environment check is done by the caller.
  const factory = new Function('X', 'H', 'CP', 'K', 'KIND', 'MORE', source) as (...args: unknown[]) => Omit<CompiledFunctions, 'source'>;
  const made = factory(generator.externals, hasOwn, codePoints, pathKey, kindOf, moreErrors);
  return { errors: made.errors, check: made.check, source };
}

let codegenSupported: boolean | undefined;

/**
 * True when this runtime allows `new Function` (Node, browsers without a strict CSP, Deno, Bun);
 * false on edge runtimes that forbid code generation from strings. Probed once.
 */
export function canGenerateCode(): boolean {
  if (codegenSupported === undefined) {
    try {
      codegenSupported = new Function('return true')() === true;
    } catch {
      codegenSupported = false;
    }
  }
  return codegenSupported;
}
