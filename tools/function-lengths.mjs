// Functions of a package's source longer than a limit, each counted from its first line to its
// last: a closure counts whole, with every function nested in it, since a closure that holds
// everything is what issue #43 split up. Biome's noExcessiveLinesPerFunction was tried first: it
// counts a closure without much of what it holds (the journal's 110-line `creates` came out under
// 90), so the rule would not have said what it says. Parsed with oxc (`rolldown/utils`, the bundler
// tools/executables already uses). Run by check-layers.mjs (`pnpm check`).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseSync, Visitor } from 'rolldown/utils';
import { sourceFiles } from './import-circles.mjs';

/** The most lines a function of the product source may span (docs/design.md, "Structure"). */
export const MAX_FUNCTION_LINES = 120;

/** The offsets at which each line of `text` starts. */
function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line of `offset` (a UTF-16 offset, as the parser gives them). */
function lineOf(starts, offset) {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/**
 * The functions under `srcDir` that span more than `limit` lines, longest first, each as
 * `path:line` relative to `base`, its number of lines and its first line's text. A file the parser
 * cannot read throws, naming it, so nothing goes unchecked.
 * @returns {{ at: string, lines: number, head: string }[]}
 */
export function longFunctions(srcDir, base, limit = MAX_FUNCTION_LINES) {
  const found = [];
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, 'utf8');
    const at = relative(base, file);
    const { program, errors } = parseSync(file, text);
    if (errors.length > 0) throw new Error(`${at} cannot be parsed to measure its functions: ${errors[0].message}`);
    const starts = lineStarts(text);
    const measure = (node) => {
      const first = lineOf(starts, node.start);
      const lines = lineOf(starts, node.end) - first + 1;
      if (lines > limit)
        found.push({ at: `${at}:${first}`, lines, head: text.slice(starts[first - 1], starts[first] ?? text.length).trim() });
    };
    new Visitor({ FunctionDeclaration: measure, FunctionExpression: measure, ArrowFunctionExpression: measure }).visit(program);
  }
  return found.sort((a, b) => b.lines - a.lines);
}
