// Plain-text tables for terminal output: columns padded to their widest cell, no borders, so the
// output stays greppable and copy-pastable. Widths are terminal cells (render/cells.ts), so a
// server's CJK name does not push its row's later columns out of line. Every cell is shown as a
// config's text is (config-text.ts) before it is measured: no table prints a raw escape.
import { cellWidth, padCells } from './cells.js';
import { shownConfig } from './config-text.js';

export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const shown = [header, ...rows].map((cells) => cells.map(shownConfig));
  const widths = columnWidths(shown);
  return `${shown.map((cells) => tableLine(cells, widths)).join('\n')}\n`;
}

/** Each column's widest cell: what the lines of a table printed bit by bit are padded to. */
export function columnWidths(rows: readonly (readonly string[])[]): number[] {
  // A loop, not Math.max(...): a file of 200,000 servers is more rows than a call takes arguments.
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cellWidth(shownConfig(cell)));
    });
  }
  return widths;
}

/** One line: every cell but the last padded to its column's width (a wider one pushes the rest). */
export function tableLine(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map(shownConfig)
    .map((cell, i) => (i === cells.length - 1 ? cell : padCells(cell, widths[i] ?? 0)))
    .join('  ')
    .trimEnd();
}
