// The server a command names, from every source the runtime knows. A name that is not there is a
// usage error that lists the names that are — unless a file has errors: a server with an error in
// its entry is left out, and a file that does not parse has none, so the name may be right and the
// file is what needs fixing (exit 1, as for every command that finds errors in it).
import { formatDiagnostic } from '@epoch-agent/infra';
import type { ConfiguredServer, RuntimeDiagnostic } from '@epoch-agent/runtime';
import { CommandFailure, UsageError } from '../command.js';
import { didYouMean } from '../did-you-mean.js';

export function findServer(
  servers: readonly ConfiguredServer[],
  diagnostics: readonly RuntimeDiagnostic[],
  name: string,
  configFile: string,
): ConfiguredServer {
  const found = servers.find(({ config }) => config.name === name);
  if (found !== undefined) return found;
  const known = servers.map(({ config }) => config.name);
  const defined = known.length === 0 ? 'there are none' : `the servers are: ${known.join(', ')}`;
  // The guess after the names, where the eye ends; the file's problems may say why it is missing.
  const problems = problemsFound(diagnostics);
  const message = `there is no MCP server "${name}" in ${configFile} or in installed plugins (${defined}).${didYouMean(name, known)}${problems}`;
  throw problems === '' ? new UsageError(message) : new CommandFailure('config_errors', message);
}

/**
 * The files' errors, for a message about a server that is not there, as sentences of their own
 * after it: ` The files have errors, which may be why: …`.
 */
export function problemsFound(diagnostics: readonly RuntimeDiagnostic[]): string {
  const problems = diagnostics
    .filter(({ severity }) => severity === 'error')
    .map((d) => `\n  ${formatDiagnostic(d)}`)
    .join('');
  return problems === '' ? '' : ` The files have errors, which may be why:${problems}`;
}
