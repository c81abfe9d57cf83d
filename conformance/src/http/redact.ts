// What a report may never show: the run's secret and the card number pushed. They reach the runner
// from the implementation too (its stderr, its answers: an error's code, field paths, message), in
// whatever encoding a careless SDK logs them, so each value is masked in every encoding the runner
// can predict: as it is, JSON-escaped (\u escapes included), percent-encoded (each byte, either
// case), base64 and base64url at any alignment inside longer data, hex of its UTF-8 bytes, and a
// card number grouped by spaces or dashes.

/** A value to mask, and what it is shown as instead. */
export interface Sensitive {
  value: string;
  mask: string;
}

/** The run's secret, and the random part that makes it secret (a prefix such as "sk_test_" is not). */
export const secretOf = (secret: string): Sensitive[] => {
  const random = /^[a-z]+_[a-z]+_(.{16,})$/i.exec(secret)?.[1];
  return [{ value: secret, mask: '‹secret›' }, ...(random ? [{ value: random, mask: '‹secret›' }] : [])];
};

/** A card number, and the groupings of four digits it is written in. */
export const cardNumberOf = (pan: string): Sensitive[] => {
  const groups = pan.match(/.{1,4}/g) ?? [pan];
  return [pan, groups.join(' '), groups.join('-')].map((value) => ({ value, mask: '‹card›' }));
};

/**
 * The base64 characters that encode `bytes` alone when they sit at `offset` (0, 1 or 2) in longer
 * data: the characters shared with the data around them are left out.
 */
function base64Inside(bytes: Buffer, offset: number, url: boolean): string {
  const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString(url ? 'base64url' : 'base64');
  return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/** Every encoding of one value the runner masks. */
function encodingsOf(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const perByte = (upper: boolean) => hex.replace(/../g, (h) => `%${upper ? h.toUpperCase() : h}`);
  const unicode = [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    unicode,
    unicode.toUpperCase().replace(/\\U/g, '\\u'),
    encodeURIComponent(value),
    perByte(false),
    perByte(true),
    hex,
    hex.toUpperCase(),
  ];
  for (const url of [false, true]) for (let offset = 0; offset < 3; offset++) forms.push(base64Inside(bytes, offset, url));
  return forms;
}

/** A function masking every encoding of every value in a text; longer forms first, so none is left half-masked. */
export function redactor(values: readonly Sensitive[]): (text: string) => string {
  const forms = values
    // A short form is masked only as the value itself: its encodings would mask ordinary text.
    .flatMap((v) => encodingsOf(v.value).map((form) => ({ form, mask: v.mask, plain: form === v.value })))
    .filter((f) => f.form !== '' && (f.plain || f.form.length >= 8))
    .sort((a, b) => b.form.length - a.form.length);
  return (text) => {
    let out = text;
    for (const { form, mask } of forms) if (out.includes(form)) out = out.split(form).join(mask);
    return out;
  };
}

/** A value with every string in it, keys included, masked; anything else as it is. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k)] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}

/**
 * Which values a text carries, and in which encoding, for a diagnosis (never the values
 * themselves): "the secret as it is and the card number in base64", or null.
 */
export function leakIn(text: string, values: readonly Sensitive[]): string | null {
  const names = [
    'as it is',
    'JSON-escaped',
    'as \\u escapes',
    'as \\u escapes',
    'percent-encoded',
    'percent-encoded',
    'percent-encoded',
    'as hex',
    'as hex',
  ];
  const found = new Map<string, string>();
  for (const v of values) {
    const what = v.mask === '‹card›' ? 'the card number' : 'the secret';
    if (found.has(what)) continue;
    const i = encodingsOf(v.value).findIndex((f) => (f === v.value || f.length >= 8) && text.includes(f));
    if (i >= 0) found.set(what, `${what} ${names[i] ?? (i < names.length + 3 ? 'in base64' : 'in base64url')}`);
  }
  return found.size ? [...found.values()].join(' and ') : null;
}
