/**
 * How deep JSON text nests, found without parsing it: a tool that re-serialises a body it was sent
 * (to explain a refused signature) checks this first, so a body nested thousands deep costs one
 * linear scan instead of a recursive parse and stringify.
 *
 * @module
 */

/**
 * Whether arrays and objects in JSON `text` nest deeper than `limit`, scanning once and stopping as
 * soon as they do. Brackets inside strings do not count. Text that is not JSON gives an answer
 * about its brackets, never an error.
 *
 * @example
 * ```ts
 * jsonNestingOver('{"a":[1,{"b":2}]}', 2); // true: three levels
 * ```
 */
export function jsonNestingOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
