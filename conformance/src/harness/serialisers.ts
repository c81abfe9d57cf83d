// How common JSON serialisers write a value, so the runner can recognise a body that was parsed and
// written again, whatever the implementation's language, and say by which serialiser.

interface Style {
  /** spaces per level; 0 writes everything on one line */
  indent: number;
  /** between items on one line (', ' or ',') */
  itemSeparator: string;
  /** between a key and its value (': ' or ':') */
  keySeparator: string;
  sortKeys?: boolean;
  /** characters written as \uXXXX even though JSON allows them raw */
  escape?: (ch: string) => boolean;
  upperHex?: boolean;
  /** '/' as '\/' */
  escapeSlash?: boolean;
  trailingNewline?: boolean;
}

const nonAscii = (ch: string) => ch.charCodeAt(0) > 0x7f;
const html = (chars: string) => (ch: string) => chars.includes(ch);

function writeString(text: string, style: Style): string {
  let out = '"';
  for (const ch of text) {
    for (let i = 0; i < ch.length; i++) {
      const unit = ch[i]!;
      const code = unit.charCodeAt(0);
      const hex = () => {
        const h = code.toString(16).padStart(4, '0');
        return `\\u${style.upperHex ? h.toUpperCase() : h}`;
      };
      if (style.escape?.(unit)) out += hex();
      else if (unit === '"') out += '\\"';
      else if (unit === '\\') out += '\\\\';
      else if (unit === '/' && style.escapeSlash) out += '\\/';
      else if (unit === '\n') out += '\\n';
      else if (unit === '\r') out += '\\r';
      else if (unit === '\t') out += '\\t';
      else if (unit === '\b') out += '\\b';
      else if (unit === '\f') out += '\\f';
      else if (code < 0x20) out += hex();
      else out += unit;
    }
  }
  return `${out}"`;
}

function write(value: unknown, style: Style, depth = 0): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' ? writeString(value, style) : JSON.stringify(value);
  }
  const pad = (d: number) => (style.indent ? `\n${' '.repeat(style.indent * d)}` : '');
  const sep = style.indent ? ',' : style.itemSeparator;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${value.map((v) => pad(depth + 1) + write(v, style, depth + 1)).join(sep)}${pad(depth)}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  if (style.sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const items = entries.map(([k, v]) => pad(depth + 1) + writeString(k, style) + style.keySeparator + write(v, style, depth + 1));
  return `{${items.join(sep)}${pad(depth)}}`;
}

const compact: Style = { indent: 0, itemSeparator: ',', keySeparator: ':' };
const python: Style = { indent: 0, itemSeparator: ', ', keySeparator: ': ', escape: nonAscii };

/** Serialisers by the names people know them by; the first that reproduces a body names it. */
export const SERIALISERS: { name: string; style: Style }[] = [
  { name: 'compact JSON as JavaScript JSON.stringify, Jackson or Ruby JSON.generate write it', style: compact },
  { name: 'Python\'s json.dumps defaults (", " and ": " separators, non-ASCII as \\u escapes)', style: python },
  { name: "Python's json.dumps(ensure_ascii=False)", style: { ...python, escape: undefined } },
  { name: 'Python\'s json.dumps(separators=(",", ":")) (non-ASCII as \\u escapes)', style: { ...compact, escape: nonAscii } },
  { name: "Python's json.dumps(sort_keys=True)", style: { ...python, sortKeys: true } },
  { name: "Python's json.dumps(indent=2)", style: { indent: 2, itemSeparator: ',', keySeparator: ': ', escape: nonAscii } },
  { name: "Python's json.dumps(indent=4)", style: { indent: 4, itemSeparator: ',', keySeparator: ': ', escape: nonAscii } },
  { name: 'JSON.stringify(value, null, 2) (or Ruby JSON.pretty_generate)', style: { indent: 2, itemSeparator: ',', keySeparator: ': ' } },
  {
    name: 'JSON.stringify(value, null, 2) followed by a newline (jq, editors)',
    style: { indent: 2, itemSeparator: ',', keySeparator: ': ', trailingNewline: true },
  },
  { name: 'JSON.stringify(value, null, 4)', style: { indent: 4, itemSeparator: ',', keySeparator: ': ' } },
  {
    name: 'PHP\'s json_encode defaults ("\\/" for "/", non-ASCII as \\u escapes)',
    style: { ...compact, escape: nonAscii, escapeSlash: true },
  },
  { name: "PHP's json_encode(JSON_UNESCAPED_SLASHES)", style: { ...compact, escape: nonAscii } },
  { name: "PHP's json_encode(JSON_UNESCAPED_UNICODE)", style: { ...compact, escapeSlash: true } },
  {
    name: "PHP's json_encode(JSON_PRETTY_PRINT)",
    style: { indent: 4, itemSeparator: ',', keySeparator: ': ', escape: nonAscii, escapeSlash: true },
  },
  { name: "Go's json.Marshal (<, > and & as \\u escapes)", style: { ...compact, escape: html('<>&\u2028\u2029') } },
  { name: "Go's json.Marshal of a map (keys sorted)", style: { ...compact, escape: html('<>&\u2028\u2029'), sortKeys: true } },
  { name: "Gson's defaults (<, >, &, = and ' as \\u escapes)", style: { ...compact, escape: html("<>&='") } },
  {
    name: '.NET System.Text.Json defaults (non-ASCII and <, >, &, \', ", + and ` as \\uXXXX)',
    style: { ...compact, escape: (ch) => nonAscii(ch) || '<>&\'"+`'.includes(ch), upperHex: true },
  },
];

/** `value` as the named serialiser writes it. */
export function serialise(value: unknown, style: Style): string {
  return write(value, style) + (style.trailingNewline ? '\n' : '');
}

/** Whether two parsed JSON values are the same value (object key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b as object, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON value of some bytes (a leading BOM dropped), or undefined when they are not JSON. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(strictUtf8.decode(bytes));
  } catch {
    return undefined;
  }
}
