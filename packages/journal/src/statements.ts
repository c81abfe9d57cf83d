// The statements of a text a handler sends, as the server would split them. A handler's `query`
// may send several statements in one text (the simple protocol), so the text is split at
// top-level semicolons, reading past what cannot hold a statement: comments (`--`, nested `/* */`),
// quoted strings, quoted identifiers and dollar-quoted bodies. What is left of each statement is
// its code, which the guards (transaction-control.ts, session-state.ts) judge by its words.
//
// How a plain '...' string reads a backslash is a server setting: with
// `standard_conforming_strings = on` (the default) it is an ordinary character, with `off` (a
// legacy setting of a database, a role or a connection) it escapes the next one, as in E'...'.
// The same text then splits differently ('it\'s'; COMMIT is one string, or a string and COMMIT),
// and the handler can change the setting itself. So the text is read both ways: see
// {@link READINGS}. PostgreSQL parses a whole text before running any of it, so a text a reading
// cannot make sense of fails as a whole anyway.

/**
 * How plain '...' strings read a backslash: `standard` (an ordinary character; E'...' escapes) or
 * `escapes` (every string escapes, as under `standard_conforming_strings = off`).
 */
export type Reading = 'standard' | 'escapes';

/** Both readings: a guard refuses a text when either one finds what it looks for. */
export const READINGS: readonly Reading[] = ['standard', 'escapes'];

const identifierChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** A quoted identifier kept as code when it is a plain name (`"set_config"(...)` is a call), else blanked. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/**
 * The statements of `text` under `reading`, lower-case, with comments and quoted strings blanked
 * out and runs of white space made one space (so only code remains, and words are easy to match).
 */
export function statementsOf(text: string, reading: Reading): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  const n = text.length;
  const push = () => statements.push(current.toLowerCase().replace(/\s+/g, ' ').trim());
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
      current += ' ';
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      current += ' ';
    } else if (c === "'") {
      // E'...' (escape string), and under the `escapes` reading every string: a backslash escapes
      // the next character. In every string '' is a quote.
      const escapes = reading === 'escapes' || ((text[i - 1] === 'e' || text[i - 1] === 'E') && !identifierChar(text[i - 2]));
      i++;
      while (i < n) {
        if (escapes && text[i] === '\\') i += 2;
        else if (text[i] === "'" && text[i + 1] === "'") i += 2;
        else if (text[i] === "'") break;
        else i++;
      }
      i++;
      current += "''";
    } else if (c === '"') {
      const start = ++i;
      while (i < n && !(text[i] === '"' && text[i + 1] !== '"')) i += text[i] === '"' ? 2 : 1;
      const name = text.slice(start, i);
      i++;
      current += PLAIN_NAME.test(name) ? `"${name}"` : '""';
    } else if (c === '$' && !identifierChar(text[i - 1])) {
      // $tag$ ... $tag$ (the tag may be empty); `$1` is a parameter, not a quote.
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 64));
      if (tag === null) {
        current += c;
        i++;
        continue;
      }
      const end = text.indexOf(tag[0], i + tag[0].length);
      i = end === -1 ? n : end + tag[0].length;
      current += ' $$ ';
    } else if (c === ';') {
      push();
      current = '';
      i++;
    } else {
      current += c;
      i++;
    }
  }
  push();
  return statements;
}
