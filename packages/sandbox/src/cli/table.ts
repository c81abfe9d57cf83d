// Plain-text tables for the listing commands: a header row and aligned columns, one row per line.
import { printable } from './common.js';

/** Characters as a terminal counts them (code points: é is one, as is Zoë's ë). */
const width = (text: string) => [...text].length;

/**
 * The lines of a table: the header, then one line per row, each column padded to its widest cell
 * (the last one is not padded). Cells are made printable (no control codes).
 */
export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string[] {
  const cells = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : printable(cell))));
  const widths = headers.map((h, i) => Math.max(width(h), ...cells.map((row) => width(row[i] ?? ''))));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - width(cell))))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)];
}
