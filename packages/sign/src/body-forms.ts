// A JSON body as the serialisers merchants use would have written it, when that differs from the
// bytes at hand: the catalogue's body_reserialised variants. Bounded (diagnosis-bounds.ts): bodies
// past DIAGNOSIS_BODY_LIMIT or nesting past RESERIALISE_DEPTH give none. Never throws.
import { DIAGNOSIS_BODY_LIMIT, RESERIALISE_DEPTH } from './diagnosis-bounds.js';
import { nestsDeeper } from './json-depth.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The body's text and JSON value, within the bounds; undefined past them or for what is not JSON. */
function parsed(body: Uint8Array): { text: string; value: unknown } | undefined {
  if (body.byteLength > DIAGNOSIS_BODY_LIMIT) return undefined;
  try {
    const text = decoder.decode(body);
    if (nestsDeeper(text, RESERIALISE_DEPTH)) return undefined;
    return { text, value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The body minified, as a framework's JSON parser and JSON.stringify leave it, when that differs
 * from the bytes at hand; else undefined.
 */
export function minified(body: Uint8Array): string | undefined {
  const json = parsed(body);
  if (json === undefined) return undefined;
  const text = JSON.stringify(json.value);
  return text === json.text ? undefined : text;
}

/**
 * The body as the serialisers merchants use would have written it, when that differs from the
 * bytes received: minified (JSON.stringify, most frameworks), pretty-printed, and Python's
 * json.dumps defaults (`", "` and `": "`, non-ASCII escaped).
 */
export function reserialised(body: Uint8Array): [string, string][] {
  const json = parsed(body);
  if (json === undefined) return [];
  const { text, value } = json;
  const compact = JSON.stringify(value);
  const spaced = pythonStyle(value);
  const forms: [string, string][] = [
    [compact, 'the body minified (as JSON.stringify writes it)'],
    [JSON.stringify(value, null, 2), 'the body pretty-printed with 2 spaces'],
    [JSON.stringify(value, null, 4), 'the body pretty-printed with 4 spaces'],
    [spaced, 'the body as Python\'s json.dumps defaults write it (", " and ": ")'],
    [asciiOnly(spaced), "the body as Python's json.dumps defaults write it (non-ASCII escaped as \\u)"],
    [asciiOnly(compact), 'the body minified with non-ASCII characters escaped as \\u'],
  ];
  const seen = new Set([text]);
  return forms.filter(([form]) => !seen.has(form) && seen.add(form) !== undefined);
}

/** JSON with Python's default separators: `", "` between items, `": "` after keys. */
function pythonStyle(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonStyle).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonStyle(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

function asciiOnly(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
