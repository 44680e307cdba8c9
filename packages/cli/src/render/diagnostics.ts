// How a config file's problems are shown in a terminal, the same for every command that reads one.
import { type Diagnostic, formatDiagnostic } from '@epoch-agent/infra';

/** A blank line, a count, then one `file:line:column: severity: path: message` per problem. */
export function renderDiagnostics(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return '';
  return `\n${diagnostics.length} problem(s):\n${diagnostics.map((d) => `  ${formatDiagnostic(d)}\n`).join('')}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some(({ severity }) => severity === 'error');
}
