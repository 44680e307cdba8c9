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
  const index = indexOf(servers);
  if (list === 'overrides') return file === userFile ? index.byName.get(key) : undefined;
  // The host's entries are in no file: their diagnostics name where they were given.
  if (source === 'host') return index.host.get(key) ?? index.inFile.get(inFile(file, key));
  return index.inFile.get(inFile(file, key));
}

interface ServerIndex {
  readonly byName: ReadonlyMap<string, string>;
  /** A user's, project's or plugin's server by its file and its key there (a plugin's unprefixed). */
  readonly inFile: ReadonlyMap<string, string>;
  /** A host's server by its key in the host's entries. */
  readonly host: ReadonlyMap<string, string>;
}

/**
 * Made once per list of servers: a page or `epoch mcp get` asks about every diagnostic, and a file
 * of 100,000 entries may have as many; a walk over the servers for each would be their square.
 */
const indexes = new WeakMap<readonly ConfiguredServer[], ServerIndex>();

function indexOf(servers: readonly ConfiguredServer[]): ServerIndex {
  const known = indexes.get(servers);
  if (known !== undefined) return known;
  const byName = new Map<string, string>();
  const files = new Map<string, string>();
  const host = new Map<string, string>();
  // The first server a key leads to, as a walk in order would find it.
  const add = (map: Map<string, string>, key: string, name: string) => {
    if (!map.has(key)) map.set(key, name);
  };
  for (const { config, origin } of servers) {
    const { name } = config;
    add(byName, name, name);
    switch (origin.source) {
      case 'user':
      case 'project':
        add(files, inFile(origin.file, name), name);
        break;
      case 'plugin':
        if (name.startsWith(`${origin.plugin}__`)) {
          add(files, inFile(origin.file, name.slice(origin.plugin.length + 2)), name);
        }
        break;
      case 'host':
        if (name.startsWith(`${origin.namespace}__`)) {
          add(host, name.slice(origin.namespace.length + 2), name);
        }
        break;
    }
  }
  const index = { byName, inFile: files, host };
  indexes.set(servers, index);
  return index;
}

function inFile(file: string, key: string): string {
  return `${file}\0${key}`;
}
