// One vector file (one JSON object per category) parsed and its shape checked lightly: enough that
// the runner can rely on the fields it reads, with messages that name the file and the vector.
import { VectorError } from '../errors.js';
import {
  COMMANDS,
  PROTOCOL_VERSION,
  REASON_CODES,
  type AcceptableConditions,
  type Answer,
  type CategoryFile,
  type Command,
  type Mistake,
  type Vector,
  type VerifyMistake,
} from '../types.js';

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

/** The vector's "mistakes" (none when absent), each parsed by `one`. */
function mistakesOf<M>(raw: Obj, at: string, one: (m: unknown, i: number) => M): M[] {
  const list = raw['mistakes'] ?? [];
  if (!Array.isArray(list)) throw new VectorError(`${at}: "mistakes" must be an array`);
  return list.map(one);
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
  // What every vector has; its strings to sign are checked last, after what its kind needs.
  const common = () => ({ id, description, flags, input, ...optB64(raw, at) });

  if (command === 'sign_request' || command === 'sign_simplified') {
    const headers = expected['headers'];
    if (!isObj(headers) || !Object.values(headers).every((h) => typeof h === 'string')) {
      throw new VectorError(`${at}: "expected.headers" must map header names to strings`);
    }
    const mistakes = mistakesOf(raw, at, (m, i): Mistake => {
      if (!isObj(m)) throw new VectorError(`${at}: mistakes[${i}] must be an object`);
      const signature = str(m, 'signature', `${at} mistakes[${i}]`);
      if (!HEX64.test(signature)) throw new VectorError(`${at}: mistakes[${i}].signature must be 64 lowercase hex`);
      return { name: str(m, 'name', `${at} mistakes[${i}]`), description: str(m, 'description', `${at} mistakes[${i}]`), signature };
    });
    return { kind: 'sign', ...common(), expected: { headers: headers as Record<string, string> }, mistakes };
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
  if (conditions !== undefined && verdict !== 'acceptable')
    throw new VectorError(`${at}: "expected.acceptable" belongs to an acceptable verdict only`);
  const mistakes = mistakesOf(raw, at, (m, i): VerifyMistake => {
    const where = `${at} mistakes[${i}]`;
    if (!isObj(m)) throw new VectorError(`${where} must be an object`);
    return { name: str(m, 'name', where), description: str(m, 'description', where), answer: answerOf(m['answer'], `${where}.answer`) };
  });
  return {
    kind: 'verify',
    ...common(),
    expected: {
      verdict,
      reason,
      ...(conditions !== undefined ? { acceptable: conditionsOf(conditions, `${at} expected.acceptable`) } : {}),
    },
    mistakes,
  };
}

const isReason = (v: unknown): v is string => typeof v === 'string' && (REASON_CODES as readonly string[]).includes(v);

function answerOf(raw: unknown, where: string): Answer {
  if (!isObj(raw) || typeof raw['valid'] !== 'boolean') throw new VectorError(`${where} must be {valid: boolean, reason}`);
  const reason = raw['reason'] ?? null;
  if (raw['valid'] ? reason !== null : !isReason(reason))
    throw new VectorError(`${where}.reason must be null when valid, a reason code otherwise`);
  return { valid: raw['valid'], reason: reason as string | null };
}

function idsOf(raw: unknown, where: string): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((v) => typeof v === 'string'))
    throw new VectorError(`${where} must be a non-empty array of vector ids`);
  return raw as string[];
}

function conditionsOf(raw: unknown, where: string): AcceptableConditions {
  if (!isObj(raw) || !isObj(raw['valid']) || !isObj(raw['invalid'])) throw new VectorError(`${where} must have "valid" and "invalid"`);
  const reasons = raw['invalid']['reasons'];
  if (!Array.isArray(reasons) || reasons.length === 0 || !reasons.every(isReason))
    throw new VectorError(`${where}.invalid.reasons must be reason codes`);
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

/** One vector file's text parsed and checked; every error names `file` and the vector. */
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
