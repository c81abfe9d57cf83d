// How deep JSON text nests, found without parsing it: body-forms.ts checks a body with it before
// re-serialising it, so a body nested thousands deep costs one linear scan instead of a recursive
// parse and stringify. Sign depends on nothing, so the scan is its own.

/**
 * Whether arrays and objects in JSON `text` nest deeper than `limit`, scanning once and stopping as
 * soon as they do. Brackets inside strings do not count. Text that is not JSON gives an answer
 * about its brackets, never an error.
 */
export function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (++depth > limit) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}
