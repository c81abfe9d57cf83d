// Fault injection: the next `count` requests whose method and path match fail the way a real
// network or service does, so a client's exactly-once logic can be tested for real.
import type { FieldError } from './wire/errors.js';
import { FAULT_KINDS, type Fault, type FaultKind } from './wire/faults.js';

export type { Fault } from './wire/faults.js';

/** Largest `count` a fault accepts. */
export const MAX_FAULT_COUNT = 100_000;
/** Largest `ms` a fault accepts: ten minutes. */
export const MAX_FAULT_MS = 10 * 60 * 1000;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const KEYS = new Set(['method', 'path_prefix', 'kind', 'count', 'ms']);

/** Checks a fault as posted: the fault, or every field error. */
export function parseFault(input: unknown): { ok: true; fault: Fault } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [{ path: '', message: 'must be an object { method, path_prefix, kind, count, ms? }' }] };
  }
  const o = input as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KEYS.has(key)) errors.push({ path: key, message: 'is not an allowed property' });
  const { method, path_prefix, kind, count, ms } = o;
  if (typeof method !== 'string' || !TOKEN.test(method))
    errors.push({ path: 'method', message: 'must be an HTTP method such as POST or GET' });
  if (typeof path_prefix !== 'string' || !path_prefix.startsWith('/') || path_prefix.length > 2048) {
    errors.push({ path: 'path_prefix', message: 'must be a path starting with /, such as /v2/merchants/payins/' });
  } else if (path_prefix.startsWith('/_sandbox')) {
    errors.push({ path: 'path_prefix', message: 'the admin API under /_sandbox/ cannot be faulted' });
  }
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    errors.push({ path: 'kind', message: `must be one of ${FAULT_KINDS.join(', ')}` });
  }
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_FAULT_COUNT) {
    errors.push({ path: 'count', message: `must be a whole number from 1 to ${MAX_FAULT_COUNT}` });
  }
  const timed = kind === 'delay' || kind === 'lookup_lag';
  if (timed && (!Number.isInteger(ms) || (ms as number) < 0 || (ms as number) > MAX_FAULT_MS)) {
    errors.push({ path: 'ms', message: `is required for ${String(kind)}: whole milliseconds from 0 to ${MAX_FAULT_MS}` });
  } else if (!timed && ms !== undefined && ms !== null) {
    errors.push({ path: 'ms', message: `applies only to delay and lookup_lag` });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    fault: {
      method: (method as string).toUpperCase(),
      path_prefix: path_prefix as string,
      kind: kind as FaultKind,
      count: count as number,
      ms: timed ? (ms as number) : null,
    },
  };
}

/** The faults waiting, oldest first. */
export class Faults {
  #list: Fault[] = [];

  add(fault: Fault): void {
    this.#list.push(fault);
  }

  /** The first fault matching a request, with one use taken from it; undefined when none. */
  take(method: string, path: string): Fault | undefined {
    const i = this.#list.findIndex((f) => f.method === method && path.startsWith(f.path_prefix));
    if (i < 0) return undefined;
    const fault = this.#list[i]!;
    fault.count -= 1;
    if (fault.count === 0) this.#list.splice(i, 1);
    return { ...fault, count: 1 };
  }

  list(): Fault[] {
    return this.#list.map((f) => ({ ...f }));
  }

  clear(): void {
    this.#list = [];
  }
}
