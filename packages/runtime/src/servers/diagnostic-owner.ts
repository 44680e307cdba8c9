// Which server a diagnostic of loading the servers is about. A diagnostic names its file and a
// field path (`servers.foo.comand`, `overrides.acme__search.exclude_tools[0]`); the path's entry is
// matched to the server whose entry that is: a user or project server by its key in its file, a
// plugin's by its key in that plugin's file, a host's by its key in the host's entries, and an
// `overrides` entry of the user's file to the plugin's or host's server it names. The page puts
// each on its server's card, `epoch mcp get` under its server.
import type { ConfiguredServer } from './configured-server.js';
import type { RuntimeDiagnostic } from './server-names.js';

/** The entry a field path is in: `servers.foo.comand` -> servers, foo. */
export interface DiagnosticEntry {
  readonly list: 'servers' | 'overrides';
  readonly key: string;
}

/** `servers.foo.comand` -> servers, foo; `overrides["a.b"]` -> overrides, a.b (the infra's formatPath). */
export function diagnosticEntry(path: string): DiagnosticEntry | undefined {
  const match = /^(servers|overrides)(?:\.([A-Za-z0-9_-]+)|\[("(?:[^"\\]|\\.)*")\])/.exec(path);
  if (match === null) return undefined;
  const list = match[1] === 'servers' ? 'servers' : 'overrides';
  const key = match[2] ?? (JSON.parse(match[3] ?? '""') as string);
  return { list, key };
}

/** The name of the loaded server the diagnostic is about; undefined for the file's or an entry not loaded. */
export function diagnosticServer(
  servers: readonly ConfiguredServer[],
  diagnostic: RuntimeDiagnostic,
  userFile: string,
): string | undefined {
  const entry = diagnosticEntry(diagnostic.path);
  if (entry === undefined) return undefined;
  const { file, source } = diagnostic;
  const { list, key } = entry;
  const named = (test: (server: ConfiguredServer) => boolean) =>
    servers.find((server) => test(server))?.config.name;
  if (list === 'overrides') {
    return file === userFile ? named(({ config }) => config.name === key) : undefined;
  }
  return named(({ config, origin }) => {
    switch (origin.source) {
      case 'user':
      case 'project':
        return origin.file === file && config.name === key;
      case 'plugin':
        return origin.file === file && config.name === `${origin.plugin}__${key}`;
      case 'host':
        // The host's entries are in no file: their diagnostics name where they were given.
        return source === 'host' && config.name === `${origin.namespace}__${key}`;
    }
  });
}
