/**
 * Turns a JSON Schema (as built by TypeBox) into a plan: the same rules, with every message
 * written out in advance and every regular expression built once. Both the compiled and the
 * interpreted validator run from a plan, so they cannot disagree on what a rule means or says.
 *
 * Only the keywords this package's schemas use are supported; anything else throws when the
 * validator is created (never while validating), so a rule can never be silently ignored.
 *
 * @module
 */
import { ERROR_MESSAGE } from '../annotations.js';
import { FORMATS, type FormatDefinition } from '../formats.js';
import { type KeywordCheck, KEYWORDS } from '../keywords.js';

/** A JSON type name, as in the `type` keyword. */
export type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** The kind of a runtime value, for choosing the branch of an `anyOf` that applies. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null' | 'other';

/** The value kinds a branch may be chosen for. */
export const VALUE_KINDS: readonly ValueKind[] = ['string', 'number', 'boolean', 'object', 'array', 'null'];

/** A rule's limit (a length, a count of items) and the message for a value past it. */
interface Bound {
  readonly limit: number;
  readonly message: string;
}

/** `type`: the JSON types a value may have, and the message for any other. */
interface TypeRule {
  readonly names: readonly TypeName[];
  readonly message: string;
}

/** `enum`: the allowed values (primitives only). */
interface EnumRule {
  readonly values: ReadonlySet<unknown>;
  readonly message: string;
}

/** `const`: the one allowed value (a primitive). */
interface ConstRule {
  readonly value: unknown;
  readonly message: string;
}

/** A format rule: the definition, and its name for code generation. */
interface FormatRule {
  readonly name: string;
  readonly definition: FormatDefinition;
}

/** The rules only a string can break. */
export interface StringRules {
  readonly minLength: Bound | undefined;
  readonly maxLength: Bound | undefined;
  readonly pattern: { readonly regex: RegExp; readonly message: string } | undefined;
  readonly formats: readonly FormatRule[];
}

/** A keyword of this package (`x-pay-money`): its name, and its check of the value. */
interface KeywordRule {
  readonly name: string;
  readonly check: KeywordCheck;
}

/** A numeric bound: `value op limit` must hold. */
interface NumberRule {
  readonly op: '>' | '>=' | '<' | '<=';
  readonly limit: number;
  readonly message: string;
}

/** A declared property of an object node. */
interface PropertyPlan {
  readonly key: string;
  readonly node: PlanNode;
  readonly required: boolean;
  readonly requiredMessage: string;
}

/** A required key without a `properties` entry. */
interface RequiredKey {
  readonly key: string;
  readonly message: string;
}

/** The rules only an object (not an array, not null) can break. */
export interface ObjectRules {
  readonly properties: readonly PropertyPlan[];
  readonly otherRequired: readonly RequiredKey[];
  /** Keys not in `properties`: any allowed, each one an error, or each value checked by a node. */
  readonly additional: 'allow' | 'forbid' | PlanNode;
  readonly additionalMessage: string;
}

/** The rules only an array can break. */
export interface ArrayRules {
  readonly minItems: Bound | undefined;
  readonly maxItems: Bound | undefined;
  readonly items: PlanNode | undefined;
}

/** `anyOf`: the branches, and which one's errors to report when none matches. */
export interface AnyOfRule {
  readonly branches: readonly PlanNode[];
  /** Shown when no single branch is made for the value's kind. */
  readonly message: string;
  /** For each value kind, the only branch accepting it, or -1 when none or several do. */
  readonly branchByKind: Readonly<Record<ValueKind, number>>;
}

/** `allOf`, `anyOf` and `if`/`then`/`else`: other nodes applied to the same value. */
interface Composition {
  readonly allOf: readonly PlanNode[];
  readonly anyOf: AnyOfRule | undefined;
  readonly conditional: { readonly if: PlanNode; readonly then: PlanNode | undefined; readonly else: PlanNode | undefined } | undefined;
}

/**
 * One schema node, ready to run: its rules grouped by the kind of value they apply to, each group
 * `undefined` when the schema has none of its keywords, so a validator skips it with one test.
 * Every node has the same fields, in the same order.
 */
export interface PlanNode {
  /** The `false` schema: nothing is valid, and this message says so. */
  readonly never: { readonly message: string } | undefined;
  readonly type: TypeRule | undefined;
  readonly string: StringRules | undefined;
  readonly number: readonly NumberRule[] | undefined;
  readonly enum: EnumRule | undefined;
  readonly const: ConstRule | undefined;
  readonly object: ObjectRules | undefined;
  readonly array: ArrayRules | undefined;
  /** This package's own keywords, run after the rules above and before the composition. */
  readonly keywords: readonly KeywordRule[] | undefined;
  readonly composition: Composition | undefined;
}

// Keywords that carry no rule (annotations), and the ones this planner understands.
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
  'format',
]);
const RULES = new Set([
  'type',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'allOf',
  'anyOf',
  'if',
  'then',
  'else',
]);
const TYPE_NAMES = new Set<string>(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const ARTICLE: Record<TypeName, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** "must be a string or null". */
function typeMessage(types: readonly TypeName[]): string {
  return `must be ${types.map((t) => ARTICLE[t]).join(' or ')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function nonNegativeInteger(value: unknown, keyword: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TypeError(`schema keyword ${keyword} must be a non-negative integer`);
  }
  return value;
}

function finite(value: unknown, keyword: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError(`schema keyword ${keyword} must be a finite number`);
  }
  return value;
}

/** Describes an `if` schema for "required when ..." messages: `country is CA`. */
function describeCondition(schema: unknown): string | undefined {
  if (!isRecord(schema) || !isRecord(schema['properties'])) return undefined;
  const parts: string[] = [];
  for (const [key, sub] of Object.entries(schema['properties'])) {
    if (!isRecord(sub) || !('const' in sub)) return undefined;
    const value = sub['const'];
    parts.push(`${key} is ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

interface PlanContext {
  /** Message for a missing required property ("is required", "required when country is CA"). */
  readonly requiredMessage: string;
}

const ROOT_CONTEXT: PlanContext = { requiredMessage: 'is required' };

const ACCEPT_ALL_KINDS: Record<ValueKind, number> = {
  string: -1,
  number: -1,
  boolean: -1,
  object: -1,
  array: -1,
  null: -1,
  other: -1,
};

/** Does a node with these types accept a value of this kind (ignoring finer rules)? */
function acceptsKind(types: readonly TypeName[] | undefined, kind: ValueKind): boolean {
  if (types === undefined) return true;
  if (kind === 'number') return types.includes('number') || types.includes('integer');
  return (types as readonly string[]).includes(kind);
}

/** Builds the plan of a schema. Throws a TypeError on a keyword it does not support. */
export function plan(schema: unknown, context: PlanContext = ROOT_CONTEXT, depth = 0): PlanNode {
  if (depth > 64) throw new TypeError('schema nested more than 64 levels deep');
  if (schema === true || schema === false) return planBoolean(schema);
  if (!isRecord(schema)) throw new TypeError('a schema must be an object or a boolean');
  for (const key of Object.keys(schema)) {
    if (!RULES.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) {
      throw new TypeError(`unsupported JSON Schema keyword: ${key}`);
    }
  }
  const custom = typeof schema[ERROR_MESSAGE] === 'string' ? (schema[ERROR_MESSAGE] as string) : undefined;
  const sub = (value: unknown, ctx: PlanContext = ROOT_CONTEXT) => plan(value, ctx, depth + 1);
  return {
    never: undefined,
    type: planType(schema),
    string: planString(schema, custom),
    number: planNumber(schema),
    enum: planEnum(schema, custom),
    const: planConst(schema, custom),
    object: planObject(schema, context, sub),
    array: planArray(schema, sub),
    keywords: planKeywords(schema),
    composition: planComposition(schema, custom, sub),
  };
}

/** Plans a subschema, one level deeper; `context` when it is the `then` of a condition. */
type PlanSub = (schema: unknown, context?: PlanContext) => PlanNode;

function planKeywords(schema: Record<string, unknown>): KeywordRule[] | undefined {
  const rules: KeywordRule[] = [];
  for (const [name, build] of Object.entries(KEYWORDS)) {
    if (name in schema) rules.push({ name, check: build(schema[name]) });
  }
  return rules.length > 0 ? rules : undefined;
}

function planType(schema: Record<string, unknown>): TypeRule | undefined {
  if (!('type' in schema)) return undefined;
  const raw = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  const names = raw.map((t) => {
    if (typeof t !== 'string' || !TYPE_NAMES.has(t)) throw new TypeError(`unsupported type: ${String(t)}`);
    return t as TypeName;
  });
  return { names, message: typeMessage(names) };
}

function planString(schema: Record<string, unknown>, custom: string | undefined): StringRules | undefined {
  let minLength: Bound | undefined;
  if ('minLength' in schema) {
    const limit = nonNegativeInteger(schema['minLength'], 'minLength');
    minLength = { limit, message: limit === 1 ? 'must not be empty' : `must be at least ${plural(limit, 'character')}` };
  }
  let maxLength: Bound | undefined;
  if ('maxLength' in schema) {
    const limit = nonNegativeInteger(schema['maxLength'], 'maxLength');
    maxLength = { limit, message: `must be at most ${plural(limit, 'character')}` };
  }
  let pattern: StringRules['pattern'];
  if ('pattern' in schema) {
    const source = schema['pattern'];
    if (typeof source !== 'string') throw new TypeError('pattern must be a string');
    pattern = { regex: new RegExp(source, 'u'), message: custom ?? `must match the pattern ${source}` };
  }
  const formats: FormatRule[] = [];
  if (typeof schema['format'] === 'string') {
    const definition = FORMATS[schema['format']];
    if (definition !== undefined) formats.push({ name: schema['format'], definition });
  }
  if (minLength === undefined && maxLength === undefined && pattern === undefined && formats.length === 0) return undefined;
  return { minLength, maxLength, pattern, formats };
}

function planNumber(schema: Record<string, unknown>): NumberRule[] | undefined {
  const rules: NumberRule[] = [];
  if ('minimum' in schema) {
    const limit = finite(schema['minimum'], 'minimum');
    rules.push({ op: '>=', limit, message: `must be at least ${limit}` });
  }
  if ('exclusiveMinimum' in schema) {
    const limit = finite(schema['exclusiveMinimum'], 'exclusiveMinimum');
    rules.push({ op: '>', limit, message: `must be greater than ${limit}` });
  }
  if ('maximum' in schema) {
    const limit = finite(schema['maximum'], 'maximum');
    rules.push({ op: '<=', limit, message: `must be at most ${limit}` });
  }
  if ('exclusiveMaximum' in schema) {
    const limit = finite(schema['exclusiveMaximum'], 'exclusiveMaximum');
    rules.push({ op: '<', limit, message: `must be less than ${limit}` });
  }
  return rules.length > 0 ? rules : undefined;
}

function planEnum(schema: Record<string, unknown>, custom: string | undefined): EnumRule | undefined {
  if (!('enum' in schema)) return undefined;
  const values = schema['enum'];
  if (!Array.isArray(values) || !values.every(isPrimitive)) throw new TypeError('enum must list primitive values');
  const message =
    custom ??
    (values.length <= 8
      ? `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`
      : `must be one of the ${values.length} allowed values`);
  return { values: new Set(values), message };
}

function planConst(schema: Record<string, unknown>, custom: string | undefined): ConstRule | undefined {
  if (!('const' in schema)) return undefined;
  const value = schema['const'];
  if (!isPrimitive(value)) throw new TypeError('const must be a primitive value');
  return { value, message: custom ?? `must be ${JSON.stringify(value)}` };
}

function planObject(schema: Record<string, unknown>, context: PlanContext, sub: PlanSub): ObjectRules | undefined {
  const required = new Set<string>();
  if ('required' in schema) {
    const list = schema['required'];
    if (!Array.isArray(list) || !list.every((k) => typeof k === 'string')) throw new TypeError('required must list strings');
    for (const key of list) required.add(key);
  }
  const properties: PropertyPlan[] = [];
  if ('properties' in schema) {
    const props = schema['properties'];
    if (!isRecord(props)) throw new TypeError('properties must be an object');
    for (const key of Object.keys(props)) {
      properties.push({
        key,
        node: sub(props[key]),
        required: required.has(key),
        requiredMessage: context.requiredMessage,
      });
    }
  }
  const declared = new Set(properties.map((p) => p.key));
  const otherRequired: RequiredKey[] = [...required]
    .filter((key) => !declared.has(key))
    .map((key) => ({ key, message: context.requiredMessage }));

  let additional: ObjectRules['additional'] = 'allow';
  if ('additionalProperties' in schema) {
    const value = schema['additionalProperties'];
    additional = value === false ? 'forbid' : value === true ? 'allow' : sub(value);
  }
  if (properties.length === 0 && otherRequired.length === 0 && additional === 'allow') return undefined;
  return { properties, otherRequired, additional, additionalMessage: 'is not an allowed property' };
}

function planArray(schema: Record<string, unknown>, sub: PlanSub): ArrayRules | undefined {
  let minItems: Bound | undefined;
  if ('minItems' in schema) {
    const limit = nonNegativeInteger(schema['minItems'], 'minItems');
    minItems = { limit, message: `must have at least ${plural(limit, 'item')}` };
  }
  let maxItems: Bound | undefined;
  if ('maxItems' in schema) {
    const limit = nonNegativeInteger(schema['maxItems'], 'maxItems');
    maxItems = { limit, message: `must have at most ${plural(limit, 'item')}` };
  }
  const items = 'items' in schema ? sub(schema['items']) : undefined;
  if (minItems === undefined && maxItems === undefined && items === undefined) return undefined;
  return { minItems, maxItems, items };
}

function planComposition(schema: Record<string, unknown>, custom: string | undefined, sub: PlanSub): Composition | undefined {
  const list = (keyword: string): PlanNode[] | undefined => {
    if (!(keyword in schema)) return undefined;
    const value = schema[keyword];
    if (!Array.isArray(value) || value.length === 0) throw new TypeError(`${keyword} must be a non-empty array`);
    return value.map((s) => sub(s));
  };
  const allOf = list('allOf') ?? [];
  const branches = list('anyOf');
  let anyOf: AnyOfRule | undefined;
  if (branches !== undefined) {
    const branchByKind = { ...ACCEPT_ALL_KINDS };
    for (const kind of VALUE_KINDS) {
      const accepting = branches.flatMap((branch, index) => (acceptsKind(branch.type?.names, kind) ? [index] : []));
      branchByKind[kind] = accepting.length === 1 ? (accepting[0] ?? -1) : -1;
    }
    let message = custom ?? 'does not match any of the allowed forms';
    if (custom === undefined && branches.every((b) => b.type !== undefined)) {
      message = typeMessage([...new Set(branches.flatMap((b) => b.type?.names ?? []))]);
    }
    anyOf = { branches, message, branchByKind };
  }

  let conditional: Composition['conditional'];
  if ('if' in schema) {
    const when = describeCondition(schema['if']);
    const thenContext = { requiredMessage: when === undefined ? 'is required here' : `required when ${when}` };
    conditional = {
      if: sub(schema['if']),
      then: 'then' in schema ? sub(schema['then'], thenContext) : undefined,
      else: 'else' in schema ? sub(schema['else']) : undefined,
    };
  }
  if (allOf.length === 0 && anyOf === undefined && conditional === undefined) return undefined;
  return { allOf, anyOf, conditional };
}

/** `true` accepts everything: a node without rules. `false` accepts nothing. */
function planBoolean(value: boolean): PlanNode {
  return {
    never: value ? undefined : { message: 'is not allowed' },
    type: undefined,
    string: undefined,
    number: undefined,
    enum: undefined,
    const: undefined,
    object: undefined,
    array: undefined,
    keywords: undefined,
    composition: undefined,
  };
}
