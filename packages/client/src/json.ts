// Request bodies as JSON text, with `payment.amount` given as a decimal string written as a JSON
// number digit for digit ("10.10" becomes 10.10, never 10.1 or 10.099999999999). JSON.stringify
// cannot write raw number text on Node 20 (JSON.rawJSON came later), so the structure is written
// here and every leaf goes through JSON.stringify, which keeps its escaping exactly.
import { POSITIVE_DECIMAL_PATTERN } from '@pay/schema';

const DECIMAL = new RegExp(POSITIVE_DECIMAL_PATTERN);

/**
 * The JSON text of a request body, as `JSON.stringify(body)` would write it except that a string
 * `payment.amount` is written as the JSON number it spells. Values JSON.stringify drops
 * (undefined, functions, symbols) are dropped. The body has been validated by then; anything it
 * could still not write (a cycle, a bigint, a non-finite number) is a TypeError, never bad JSON.
 */
export function bodyJson(body: object): string {
  return write(body, 0, 'root') ?? 'null';
}

// Where a value sits, as far as the amount is concerned.
type Slot = 'root' | 'payment' | 'amount' | 'other';

function write(value: unknown, depth: number, slot: Slot): string | undefined {
  if (depth > 32) throw new TypeError('body is nested too deeply');
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      if (slot === 'amount') {
        if (!DECIMAL.test(value)) throw new TypeError('payment.amount is not a decimal string');
        return value;
      }
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('body contains a number that is not finite');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    case 'bigint':
      throw new TypeError('body contains a bigint');
    default:
      return undefined; // undefined, functions and symbols, as JSON.stringify drops them
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => write(item, depth + 1, 'other') ?? 'null').join(',')}]`;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return write((value as { toJSON(): unknown }).toJSON(), depth + 1, 'other');
  }
  const members: string[] = [];
  for (const key of Object.keys(value)) {
    // Only the top-level `payment` object holds an amount.
    const inner: Slot = slot === 'root' && key === 'payment' ? 'payment' : slot === 'payment' && key === 'amount' ? 'amount' : 'other';
    const text = write((value as Record<string, unknown>)[key], depth + 1, inner);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
