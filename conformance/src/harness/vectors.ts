// Loads the golden vector files (one JSON object per category) and checks their shape lightly:
// enough that the runner can rely on the fields it reads, with messages that name the file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COMMANDS,
  PROTOCOL_VERSION,
  REASON_CODES,
  type AcceptableConditions,
  type Answer,
  type CategoryFile,
  type Command,
  type Mistake,
  type Suite,
  type Vector,
  type VerifyMistake,
} from '../types.js';

export class VectorError extends Error {
  override name = 'VectorError';
}

/** Where the runner is compiled to (dist/): this file is dist/harness/vectors.js. */
const runnerDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where the vectors are when no directory is given: the copy the build puts next to the
 * compiled runner (dist/vectors), else the repository's vectors/ directory.
 */
export function defaultVectorsDir(): string {
  const candidates = [join(runnerDir, 'vectors'), resolve(runnerDir, '..', '..', 'vectors')];
  for (const dir of candidates) {
    if (existsSync(dir) && vectorFiles(dir).length > 0) return dir;
  }
  return candidates[candidates.length - 1]!;
}

const NOT_VECTORS = new Set(['schema.json', 'package.json']);

function vectorFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !NOT_VECTORS.has(f) && !f.startsWith('.') && !f.startsWith('tsconfig'))
    .sort();
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX64 = /^[0-9a-f]{64}$/;

function str(o: Obj, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new VectorError(`${where}: "${key}" must be a string`);
  return v;
}

function flagsOf(o: Obj, where: string): string[] {
  const v = o['flags'] ?? [];
  if (!Array.isArray(v) || !v.every((f) => typeof f === 'string')) {
    throw new VectorError(`${where}: "flags" must be an array of strings`);
  }
  return v as string[];
}

function optB64(o: Obj, where: string): { string_to_sign_b64?: string; string_to_sign_utf8?: string | null } {
  const out: { string_to_sign_b64?: string; string_to_sign_utf8?: string | null } = {};
  const b64 = o['string_to_sign_b64'];
  if (b64 !== undefined) {
    if (typeof b64 !== 'string') throw new VectorError(`${where}: "string_to_sign_b64" must be a string`);
    out.string_to_sign_b64 = b64;
  }
  const utf8 = o['string_to_sign_utf8'];
  if (utf8 !== undefined) {
    if (typeof utf8 !== 'string' && utf8 !== null) {
      throw new VectorError(`${where}: "string_to_sign_utf8" must be a string or null`);
    }
    out.string_to_sign_utf8 = utf8;
  }
  return out;
}

function parseVector(raw: unknown, command: Command, category: string, where: string): Vector {
  if (!isObj(raw)) throw new VectorError(`${where}: a vector must be an object`);
  const id = str(raw, 'id', where);
  const at = `${where} (${id})`;
  if (!id.startsWith(`${category}/`)) throw new VectorError(`${at}: the id must start with "${category}/"`);
  const description = str(raw, 'description', at);
  const flags = flagsOf(raw, at);
  const input = raw['input'];
  if (!isObj(input)) throw new VectorError(`${at}: "input" must be an object`);
  const expected = raw['expected'];
  if (!isObj(expected)) throw new VectorError(`${at}: "expected" must be an object`);

  if (command === 'sign_request' || command === 'sign_simplified') {
    const headers = expected['headers'];
    if (!isObj(headers) || !Object.values(headers).every((h) => typeof h === 'string')) {
      throw new VectorError(`${at}: "expected.headers" must map header names to strings`);
    }
    const mistakesRaw = raw['mistakes'] ?? [];
    if (!Array.isArray(mistakesRaw)) throw new VectorError(`${at}: "mistakes" must be an array`);
    const mistakes: Mistake[] = mistakesRaw.map((m, i) => {
      if (!isObj(m)) throw new VectorError(`${at}: mistakes[${i}] must be an object`);
      const signature = str(m, 'signature', `${at} mistakes[${i}]`);
      if (!HEX64.test(signature)) throw new VectorError(`${at}: mistakes[${i}].signature must be 64 lowercase hex`);
      return { name: str(m, 'name', `${at} mistakes[${i}]`), description: str(m, 'description', `${at} mistakes[${i}]`), signature };
    });
    return {
      kind: 'sign',
      id,
      description,
      flags,
      input,
      ...optB64(raw, at),
      expected: { headers: headers as Record<string, string> },
      mistakes,
    };
  }

  const verdict = expected['verdict'];
  if (verdict !== 'valid' && verdict !== 'invalid' && verdict !== 'acceptable') {
    throw new VectorError(`${at}: "expected.verdict" must be valid, invalid or acceptable`);
  }
  const reason = expected['reason'] ?? null;
  if (reason !== null && typeof reason !== 'string') {
    throw new VectorError(`${at}: "expected.reason" must be a string or null`);
  }
  if (verdict === 'invalid' && reason === null) throw new VectorError(`${at}: an invalid verdict needs a reason`);
  const conditions = expected['acceptable'];
  if (conditions !== undefined && verdict !== 'acceptable') throw new VectorError(`${at}: "expected.acceptable" belongs to an acceptable verdict only`);
  const mistakesRaw = raw['mistakes'] ?? [];
  if (!Array.isArray(mistakesRaw)) throw new VectorError(`${at}: "mistakes" must be an array`);
  const mistakes: VerifyMistake[] = mistakesRaw.map((m, i) => {
    const where = `${at} mistakes[${i}]`;
    if (!isObj(m)) throw new VectorError(`${where} must be an object`);
    return { name: str(m, 'name', where), description: str(m, 'description', where), answer: answerOf(m['answer'], `${where}.answer`) };
  });
  return {
    kind: 'verify',
    id,
    description,
    flags,
    input,
    ...optB64(raw, at),
    expected: { verdict, reason, ...(conditions !== undefined ? { acceptable: conditionsOf(conditions, `${at} expected.acceptable`) } : {}) },
    mistakes,
  };
}

const isReason = (v: unknown): v is string => typeof v === 'string' && (REASON_CODES as readonly string[]).includes(v);

function answerOf(raw: unknown, where: string): Answer {
  if (!isObj(raw) || typeof raw['valid'] !== 'boolean') throw new VectorError(`${where} must be {valid: boolean, reason}`);
  const reason = raw['reason'] ?? null;
  if (raw['valid'] ? reason !== null : !isReason(reason)) throw new VectorError(`${where}.reason must be null when valid, a reason code otherwise`);
  return { valid: raw['valid'], reason: reason as string | null };
}

function idsOf(raw: unknown, where: string): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((v) => typeof v === 'string')) throw new VectorError(`${where} must be a non-empty array of vector ids`);
  return raw as string[];
}

function conditionsOf(raw: unknown, where: string): AcceptableConditions {
  if (!isObj(raw) || !isObj(raw['valid']) || !isObj(raw['invalid'])) throw new VectorError(`${where} must have "valid" and "invalid"`);
  const reasons = raw['invalid']['reasons'];
  if (!Array.isArray(reasons) || reasons.length === 0 || !reasons.every(isReason)) throw new VectorError(`${where}.invalid.reasons must be reason codes`);
  return {
    valid: { requires: idsOf(raw['valid']['requires'], `${where}.valid.requires`) },
    invalid: { reasons: reasons as string[], requires: idsOf(raw['invalid']['requires'], `${where}.invalid.requires`) },
  };
}

/** The ids an acceptable vector's judgement depends on. */
export function requiredIds(v: Vector): string[] {
  if (v.kind !== 'verify' || !v.expected.acceptable) return [];
  return [...new Set([...v.expected.acceptable.valid.requires, ...v.expected.acceptable.invalid.requires])];
}

export function parseCategoryFile(text: string, file: string): CategoryFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new VectorError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!isObj(raw)) throw new VectorError(`${file}: must hold one JSON object`);
  const protocol = raw['protocol'];
  if (protocol !== PROTOCOL_VERSION) {
    throw new VectorError(`${file}: written for harness protocol ${String(protocol)}; this runner speaks ${PROTOCOL_VERSION}`);
  }
  const command = str(raw, 'command', file);
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new VectorError(`${file}: unknown command "${command}" (this runner knows ${COMMANDS.join(', ')})`);
  }
  const category = str(raw, 'category', file);
  const vectors = raw['vectors'];
  if (!Array.isArray(vectors)) throw new VectorError(`${file}: "vectors" must be an array`);
  return {
    file,
    suite: str(raw, 'suite', file),
    suite_version: str(raw, 'suite_version', file),
    protocol,
    category,
    command: command as Command,
    description: typeof raw['description'] === 'string' ? raw['description'] : '',
    vectors: vectors.map((v, i) => parseVector(v, command as Command, category, `${file} vectors[${i}]`)),
  };
}

export function loadSuite(dir: string): Suite {
  if (!existsSync(dir)) throw new VectorError(`vectors directory not found: ${dir}`);
  const files = vectorFiles(dir);
  if (files.length === 0) throw new VectorError(`no vector files (*.json) in ${dir}`);
  const categories = files.map((f) => parseCategoryFile(readFileSync(join(dir, f), 'utf8'), f));
  const suites = new Set(categories.map((c) => c.suite));
  if (suites.size > 1) throw new VectorError(`${dir}: files from different suites (${[...suites].join(', ')})`);
  const versions = [...new Set(categories.map((c) => c.suite_version))];
  if (versions.length > 1) throw new VectorError(`${dir}: files with different suite versions (${versions.join(', ')})`);
  const seen = new Map<string, string>();
  const names = new Set<string>();
  for (const c of categories) {
    if (names.has(c.category)) throw new VectorError(`${c.file}: category "${c.category}" appears in two files`);
    names.add(c.category);
    for (const v of c.vectors) {
      const other = seen.get(v.id);
      if (other) throw new VectorError(`${c.file}: vector id "${v.id}" also appears in ${other}`);
      seen.set(v.id, c.file);
    }
  }
  for (const c of categories) {
    const own = new Map(c.vectors.map((v) => [v.id, v]));
    for (const v of c.vectors) {
      for (const id of requiredIds(v)) {
        const needed = own.get(id);
        if (!needed) throw new VectorError(`${c.file} (${v.id}): requires "${id}", which is not a vector of this file`);
        if (needed.kind === 'verify' && needed.expected.verdict === 'acceptable') throw new VectorError(`${c.file} (${v.id}): requires "${id}", itself acceptable`);
      }
    }
  }
  return { dir, suite: categories[0]!.suite, suite_version: versions[0]!, categories };
}

/** `*` in a pattern matches any run of characters; anything else matches itself. */
function matcher(pattern: string): (s: string) => boolean {
  if (!pattern.includes('*')) return (s) => s === pattern;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return (s) => re.test(s);
}

export interface Selection {
  categories?: string[];
  ids?: string[];
}

/** Keeps the chosen categories and ids; throws when a selector matches nothing (a typo). */
export function selectCases(suite: Suite, sel: Selection): Suite {
  let categories = suite.categories;
  if (sel.categories && sel.categories.length > 0) {
    for (const name of sel.categories) {
      const m = matcher(name);
      if (!categories.some((c) => m(c.category))) {
        throw new VectorError(`no category "${name}" (have ${suite.categories.map((c) => c.category).join(', ')})`);
      }
    }
    const ms = sel.categories.map(matcher);
    categories = categories.filter((c) => ms.some((m) => m(c.category)));
  }
  if (sel.ids && sel.ids.length > 0) {
    const ms = sel.ids.map(matcher);
    // An acceptable vector brings the vectors its verdict depends on.
    const keep = (c: CategoryFile) => {
      const chosen = new Set(c.vectors.filter((v) => ms.some((m) => m(v.id))).map((v) => v.id));
      for (const v of c.vectors) if (chosen.has(v.id)) for (const id of requiredIds(v)) chosen.add(id);
      return c.vectors.filter((v) => chosen.has(v.id));
    };
    categories = categories.map((c) => ({ ...c, vectors: keep(c) })).filter((c) => c.vectors.length > 0);
    if (categories.length === 0) throw new VectorError(`no vector id matches ${sel.ids.join(', ')}`);
  }
  return { ...suite, categories };
}
