// The implementation's command line split into words without a shell: --impl is given as one
// string, and the child is spawned from the words (no variables, globs or pipes).

/** Splits a command line the way a POSIX shell would for plain words, '…' and "…" quoting and \ escapes. */
export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in command line: ${line}`);
      cur += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= line.length) throw new Error(`unterminated " in command line: ${line}`);
        const c = line[i]!;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          cur += line[i + 1];
          i += 2;
        } else {
          cur += c;
          i++;
        }
      }
    } else if (ch === '\\') {
      if (i + 1 < line.length) cur += line[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (inWord) args.push(cur);
      cur = '';
      inWord = false;
      i++;
    } else {
      cur += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) args.push(cur);
  if (args.length === 0) throw new Error('empty command line');
  return args;
}
