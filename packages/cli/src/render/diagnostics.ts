// How a config file's problems are shown in a terminal, the same for every command that reads one.
import { type Diagnostic, formatDiagnostic } from '@epoch-agent/infra';
import { wrapCells } from './cells.js';
import { shownConfig } from './config-text.js';
import { counted } from './counted.js';

/**
 * A blank line, a count, then one `file:line:column: severity: path: message` per problem, wrapped
 * within `room` cells (a terminal's width; a pipe's lines stay whole, one problem per line).
 */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  room = Number.POSITIVE_INFINITY,
): string {
  if (diagnostics.length === 0) return '';
  // A message quotes the file's text (a field's name, a value): escaped before it is wrapped.
  const lines = diagnostics.map(
    (d) => `  ${wrapCells(shownConfig(formatDiagnostic(d)), room - 4).join('\n    ')}\n`,
  );
  return `\n${counted(diagnostics.length, 'problem')}:\n${lines.join('')}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some(({ severity }) => severity === 'error');
}
