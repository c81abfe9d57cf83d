// Which statements of a text would end or take over the transaction they run in. A handler's
// `query` may send several statements in one text (the simple protocol), so the text is split at
// top-level semicolons, reading past what cannot hold a statement: comments (`--`, nested `/* */`),
// quoted strings ('...', E'...' with backslash escapes), quoted identifiers and dollar-quoted
// bodies. Only each statement's first words are judged. PostgreSQL parses a whole text before
// running any of it, so a text this reading cannot make sense of fails as a whole anyway.

/**
 * First words that end or take over a transaction. SAVEPOINT, RELEASE and ROLLBACK TO stay
 * allowed: they act only on savepoints the handler itself made. A DO block or procedure cannot
 * COMMIT inside a transaction block (PostgreSQL refuses it), so they need no rule.
 */
const CONTROL =
  /^(begin|start\s+transaction|commit|end|abort|rollback(?!\s+((work|transaction)\s+)?to\b)|prepare\s+transaction|set\s+transaction|set\s+session\s+characteristics)\b/;

/**
 * The transaction-control statement `text` holds (its first words, in capitals, such as
 * `COMMIT`), or undefined when it holds none.
 */
export function transactionControlIn(text: string): string | undefined {
  for (const statement of statementsOf(text)) {
    const words = statement.trim().toLowerCase().replace(/\s+/g, ' ');
    const match = CONTROL.exec(words);
    if (match) return match[0].toUpperCase();
  }
  return undefined;
}

const identifierChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** The statements of `text`, with comments and quoted parts blanked out (so only code remains). */
function statementsOf(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  const n = text.length;
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
      // E'...' (escape string): a backslash escapes the next character; otherwise '' is a quote.
      const escapes = (text[i - 1] === 'e' || text[i - 1] === 'E') && !identifierChar(text[i - 2]);
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
      i++;
      while (i < n && !(text[i] === '"' && text[i + 1] !== '"')) i += text[i] === '"' ? 2 : 1;
      i++;
      current += '""';
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
      statements.push(current);
      current = '';
      i++;
    } else {
      current += c;
      i++;
    }
  }
  statements.push(current);
  return statements;
}
