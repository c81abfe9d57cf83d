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

/** A JSON type name, as in the `type` keyword. */
export type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** The kind of a runtime value, for choosing the branch of an `anyOf` that applies. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null' | 'other';

/** The value kinds a branch may be chosen for. */
export const VALUE_KINDS: readonly ValueKind[] = ['string', 'number', 'boolean', 'object', 'array', 'null'];

/** A declared property of an object node. */
interface PropertyPlan {
  readonly key: string;
  readonly node: PlanNode;
  readonly required: boolean;
  readonly requiredMessage: string;
}

/** A numeric bound. */
interface NumberRule {
  readonly op: '>' | '>=' | '<' | '<=';
  readonly limit: number;
  readonly message: string;
}

/** A format rule: the definition, and its name for code generation. */
interface FormatRule {
  readonly name: string;
  readonly definition: FormatDefinition;
}

/** One schema node, ready to run. */
export interface PlanNode {
  /** `false` schema: nothing is valid. */
  readonly never: boolean;
  readonly types: readonly TypeName[] | undefined;
  readonly typeMessage: string;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLengthMessage: string;
  readonly maxLengthMessage: string;
  readonly pattern: RegExp | undefined;
  readonly patternMessage: string;
  readonly formats: readonly FormatRule[];
  /** Allowed values of `enum`, primitives only. */
  readonly enumValues: readonly unknown[] | undefined;
  readonly enumSet: ReadonlySet<unknown> | undefined;
  readonly enumMessage: string;
  readonly hasConst: boolean;
  readonly constValue: unknown;
  readonly constMessage: string;
  readonly numberRules: readonly NumberRule[];
  readonly properties: readonly PropertyPlan[];
  /** Required keys without a `properties` entry. */
  readonly otherRequired: readonly PropertyPlan[];
  readonly additional: 'allow' | 'forbid' | PlanNode;
  readonly additionalMessage: string;
  readonly items: PlanNode | undefined;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly minItemsMessage: string;
  readonly maxItemsMessage: string;
  readonly allOf: readonly PlanNode[];
  readonly anyOf: readonly PlanNode[] | undefined;
  readonly anyOfMessage: string;
  /** For each value kind, the only `anyOf` branch accepting it, or -1 when none or several do. */
  readonly anyOfBranchByKind: Readonly<Record<ValueKind, number>>;
  readonly conditional: { readonly if: PlanNode; readonly then: PlanNode | undefined; readonly else: PlanNode | undefined } | undefined;
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

  let types: TypeName[] | undefined;
  if ('type' in schema) {
    const raw = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
    types = raw.map((t) => {
      if (typeof t !== 'string' || !TYPE_NAMES.has(t)) throw new TypeError(`unsupported type: ${String(t)}`);
      return t as TypeName;
    });
  }

  const minLength = 'minLength' in schema ? nonNegativeInteger(schema['minLength'], 'minLength') : undefined;
  const maxLength = 'maxLength' in schema ? nonNegativeInteger(schema['maxLength'], 'maxLength') : undefined;
  let pattern: RegExp | undefined;
  if ('pattern' in schema) {
    if (typeof schema['pattern'] !== 'string') throw new TypeError('pattern must be a string');
    pattern = new RegExp(schema['pattern'], 'u');
  }
  const formats: FormatRule[] = [];
  if (typeof schema['format'] === 'string') {
    const definition = FORMATS[schema['format']];
    if (definition !== undefined) formats.push({ name: schema['format'], definition });
  }

  let enumValues: unknown[] | undefined;
  if ('enum' in schema) {
    const values = schema['enum'];
    if (!Array.isArray(values) || !values.every(isPrimitive)) throw new TypeError('enum must list primitive values');
    enumValues = [...values];
  }
  const hasConst = 'const' in schema;
  if (hasConst && !isPrimitive(schema['const'])) throw new TypeError('const must be a primitive value');

  const numberRules: NumberRule[] = [];
  if ('minimum' in schema) {
    const limit = finite(schema['minimum'], 'minimum');
    numberRules.push({ op: '>=', limit, message: `must be at least ${limit}` });
  }
  if ('exclusiveMinimum' in schema) {
    const limit = finite(schema['exclusiveMinimum'], 'exclusiveMinimum');
    numberRules.push({ op: '>', limit, message: `must be greater than ${limit}` });
  }
  if ('maximum' in schema) {
    const limit = finite(schema['maximum'], 'maximum');
    numberRules.push({ op: '<=', limit, message: `must be at most ${limit}` });
  }
  if ('exclusiveMaximum' in schema) {
    const limit = finite(schema['exclusiveMaximum'], 'exclusiveMaximum');
    numberRules.push({ op: '<', limit, message: `must be less than ${limit}` });
  }

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
  const otherRequired: PropertyPlan[] = [...required]
    .filter((key) => !declared.has(key))
    .map((key) => ({ key, node: planBoolean(true), required: true, requiredMessage: context.requiredMessage }));

  let additional: PlanNode | 'allow' | 'forbid' = 'allow';
  if ('additionalProperties' in schema) {
    const value = schema['additionalProperties'];
    additional = value === false ? 'forbid' : value === true ? 'allow' : sub(value);
  }

  const items = 'items' in schema ? sub(schema['items']) : undefined;
  const minItems = 'minItems' in schema ? nonNegativeInteger(schema['minItems'], 'minItems') : undefined;
  const maxItems = 'maxItems' in schema ? nonNegativeInteger(schema['maxItems'], 'maxItems') : undefined;

  const list = (keyword: string): PlanNode[] | undefined => {
    if (!(keyword in schema)) return undefined;
    const value = schema[keyword];
    if (!Array.isArray(value) || value.length === 0) throw new TypeError(`${keyword} must be a non-empty array`);
    return value.map((s) => sub(s));
  };
  const allOf = list('allOf') ?? [];
  const anyOf = list('anyOf');
  const anyOfBranchByKind = { ...ACCEPT_ALL_KINDS };
  if (anyOf !== undefined) {
    for (const kind of VALUE_KINDS) {
      const accepting = anyOf.flatMap((branch, index) => (acceptsKind(branch.types, kind) ? [index] : []));
      anyOfBranchByKind[kind] = accepting.length === 1 ? (accepting[0] ?? -1) : -1;
    }
  }
  let anyOfMessage = custom ?? 'does not match any of the allowed forms';
  if (custom === undefined && anyOf !== undefined && anyOf.every((b) => b.types !== undefined)) {
    anyOfMessage = typeMessage([...new Set(anyOf.flatMap((b) => b.types ?? []))]);
  }

  let conditional: PlanNode['conditional'];
  if ('if' in schema) {
    const when = describeCondition(schema['if']);
    const thenContext = { requiredMessage: when === undefined ? 'is required here' : `required when ${when}` };
    conditional = {
      if: sub(schema['if']),
      then: 'then' in schema ? sub(schema['then'], thenContext) : undefined,
      else: 'else' in schema ? sub(schema['else']) : undefined,
    };
  }

  return {
    never: false,
    types,
    typeMessage: types === undefined ? '' : typeMessage(types),
    minLength,
    maxLength,
    minLengthMessage: minLength === 1 ? 'must not be empty' : `must be at least ${plural(minLength ?? 0, 'character')}`,
    maxLengthMessage: `must be at most ${plural(maxLength ?? 0, 'character')}`,
    pattern,
    patternMessage: custom ?? `must match the pattern ${String(schema['pattern'])}`,
    formats,
    enumValues,
    enumSet: enumValues === undefined ? undefined : new Set(enumValues),
    enumMessage:
      custom ??
      (enumValues !== undefined && enumValues.length <= 8
        ? `must be one of ${enumValues.map((v) => JSON.stringify(v)).join(', ')}`
        : `must be one of the ${enumValues?.length ?? 0} allowed values`),
    hasConst,
    constValue: schema['const'],
    constMessage: custom ?? `must be ${JSON.stringify(schema['const'])}`,
    numberRules,
    properties,
    otherRequired,
    additional,
    additionalMessage: 'is not an allowed property',
    items,
    minItems,
    maxItems,
    minItemsMessage: `must have at least ${plural(minItems ?? 0, 'item')}`,
    maxItemsMessage: `must have at most ${plural(maxItems ?? 0, 'item')}`,
    allOf,
    anyOf,
    anyOfMessage,
    anyOfBranchByKind,
    conditional,
  };
}

function planBoolean(value: boolean): PlanNode {
  return {
    never: !value,
    types: undefined,
    typeMessage: 'is not allowed',
    minLength: undefined,
    maxLength: undefined,
    minLengthMessage: '',
    maxLengthMessage: '',
    pattern: undefined,
    patternMessage: '',
    formats: [],
    enumValues: undefined,
    enumSet: undefined,
    enumMessage: '',
    hasConst: false,
    constValue: undefined,
    constMessage: '',
    numberRules: [],
    properties: [],
    otherRequired: [],
    additional: 'allow',
    additionalMessage: '',
    items: undefined,
    minItems: undefined,
    maxItems: undefined,
    minItemsMessage: '',
    maxItemsMessage: '',
    allOf: [],
    anyOf: undefined,
    anyOfMessage: '',
    anyOfBranchByKind: ACCEPT_ALL_KINDS,
    conditional: undefined,
  };
}
