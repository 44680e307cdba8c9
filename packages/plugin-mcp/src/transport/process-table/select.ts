// Which process table the reaper reads: the platform's, unless EPOCH_PROCESS_TABLE names another
// (a diagnostic switch, documented in the README: `ps` on Linux runs the macOS path here).

import { procSource } from './proc.js';
import { psSource } from './ps.js';
import type { ProcessTableKind, ProcessTableSource } from './table.js';
import { windowsSource } from './windows.js';

const SOURCES: Record<ProcessTableKind, ProcessTableSource> = {
  proc: procSource,
  ps: psSource,
  windows: windowsSource,
};

function platformKind(): ProcessTableKind {
  if (process.platform === 'win32') return 'windows';
  return process.platform === 'linux' ? 'proc' : 'ps';
}

/** The source of `kind`: to read a table the way a record of it was read (leftovers.ts). */
export function processTableSourceOf(kind: ProcessTableKind): ProcessTableSource {
  return SOURCES[kind];
}

/**
 * The source for a close starting now. EPOCH_PROCESS_TABLE is read each time, so a test can run
 * the same closes under each source; an unknown value is ignored.
 */
export function processTableSource(): ProcessTableSource {
  const chosen = process.env.EPOCH_PROCESS_TABLE;
  return chosen !== undefined && Object.hasOwn(SOURCES, chosen)
    ? SOURCES[chosen as ProcessTableKind]
    : SOURCES[platformKind()];
}
