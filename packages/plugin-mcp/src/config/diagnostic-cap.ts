// A file's problems in the order they sit, each kind told a bounded number of times: a file that
// repeats one mistake a hundred thousand times (a key given twice over and over, `${A}` in every
// argument) gets the first few of each kind for each server, then one "and N more like it" — not
// megabytes of the same sentence on a terminal or on the page, which both read what the loader gives.
import { type Diagnostic, groupedNumber } from '@epoch-agent/infra';

/** How many problems of one kind in one server (or the file's top level) are told in full. */
export const SHOWN_PER_KIND = 10;

// The entry a path is in: `servers.github` or `servers["my.server"]` (the file's top level: '').
const ENTRY = /^(?:servers|overrides)(?:\.[A-Za-z0-9_-]+|\["(?:[^"\\]|\\.)*"\])/;

/** `diagnostics` sorted by position, each (entry, code) cut to SHOWN_PER_KIND and a count. */
export function cappedDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const sorted = byPosition(diagnostics);
  const told = new Map<string, { count: number; first?: Diagnostic }>();
  const kept: Diagnostic[] = [];
  for (const d of sorted) {
    const entry = ENTRY.exec(d.path)?.[0] ?? '';
    const key = JSON.stringify([entry, d.code]);
    const group = told.get(key) ?? { count: 0 };
    told.set(key, group);
    group.count += 1;
    if (group.count <= SHOWN_PER_KIND) kept.push(d);
    else if (group.first === undefined) group.first = d;
  }
  if (kept.length === sorted.length) return sorted;
  for (const [key, { count, first }] of told) {
    if (first === undefined) continue;
    const [entry] = JSON.parse(key) as [string];
    const where = entry === '' ? 'this file' : `${entry} of this file`;
    kept.push({
      ...first,
      message: `and ${groupedNumber(count - SHOWN_PER_KIND)} more like the ${SHOWN_PER_KIND} above ("${first.code}") in ${where}, not shown one by one: fix those and read the file again to see what is left.`,
    });
  }
  return byPosition(kept);
}

// Stable: what shares a position keeps its order, so a count stays after the ones it follows.
function byPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
}
