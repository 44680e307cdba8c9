// Where on the page each diagnostic of loading the servers belongs: on the card of the server it
// concerns, on a card of its own for an entry the loader did not load (so a misspelled field does
// not make the server vanish), at the top for a file that could not be read at all, and in the
// file-level list for the rest. A diagnostic names its file and a field path
// (`servers.foo.comand`, `overrides.acme__search.exclude_tools[0]`); the path's entry is matched
// to the server whose entry that is: a user server by its key in the user's file, a plugin's by its
// key in that plugin's file, a host's by its key in the host's entries, and an `overrides` entry of
// the user's file to the plugin's or host's server it names.
import type { ConfiguredServer, RuntimeDiagnostic } from '@epoch-agent/runtime';
import type { McpGroups, NotLoadedView } from './api-types.js';

export interface DiagnosticPlaces {
  /** By server name: what loading found about its entry (or its `overrides` entry). */
  readonly byServer: ReadonlyMap<string, readonly RuntimeDiagnostic[]>;
  readonly notLoaded: McpGroups<readonly NotLoadedView[]>;
  readonly unreadable: readonly RuntimeDiagnostic[];
  readonly fileLevel: readonly RuntimeDiagnostic[];
}

// A file nothing was read from: its servers are unknown, not absent.
const UNREADABLE = new Set(['syntax_error', 'unreadable_file', 'too_deep']);

export function placeDiagnostics(
  servers: readonly ConfiguredServer[],
  diagnostics: readonly RuntimeDiagnostic[],
  userFile: string,
): DiagnosticPlaces {
  const byServer = new Map<string, RuntimeDiagnostic[]>();
  const unreadable: RuntimeDiagnostic[] = [];
  const fileLevel: RuntimeDiagnostic[] = [];
  // Entries not loaded, by file and key: the diagnostics about each, an error among them.
  const orphans = new Map<string, { key: string; diagnostics: RuntimeDiagnostic[] }>();
  for (const diagnostic of diagnostics) {
    if (UNREADABLE.has(diagnostic.code)) {
      unreadable.push(diagnostic);
      continue;
    }
    const entry = entryOf(diagnostic.path);
    if (entry === undefined) {
      fileLevel.push(diagnostic);
      continue;
    }
    const owner = ownerOf(servers, diagnostic, entry, userFile);
    if (owner !== undefined) {
      byServer.set(owner, [...(byServer.get(owner) ?? []), diagnostic]);
    } else if (entry.list === 'servers') {
      const id = `${diagnostic.source}\u0000${diagnostic.file}\u0000${entry.key}`;
      const orphan = orphans.get(id) ?? { key: entry.key, diagnostics: [] };
      orphan.diagnostics.push(diagnostic);
      orphans.set(id, orphan);
    } else {
      fileLevel.push(diagnostic);
    }
  }
  const notLoaded: McpGroups<NotLoadedView[]> = { user: [], host: [], plugin: [] };
  for (const { key, diagnostics: about } of orphans.values()) {
    // Only an error leaves an entry out; warnings alone about an entry no source has (none expected)
    // stay in the file-level list.
    if (!about.some(({ severity }) => severity === 'error')) {
      fileLevel.push(...about);
      continue;
    }
    const first = [...about].sort((a, b) => a.line - b.line || a.column - b.column)[0];
    if (first === undefined) continue;
    const { source, file, line, column } = first;
    notLoaded[source].push({ name: key, source, at: { file, line, column }, problems: about });
  }
  return { byServer, notLoaded, unreadable, fileLevel };
}

interface EntryPath {
  readonly list: 'servers' | 'overrides';
  readonly key: string;
}

/** `servers.foo.comand` -> servers, foo; `overrides["a.b"]` -> overrides, a.b (the infra's formatPath). */
export function entryOf(path: string): EntryPath | undefined {
  const match = /^(servers|overrides)(?:\.([A-Za-z0-9_-]+)|\[("(?:[^"\\]|\\.)*")\])/.exec(path);
  if (match === null) return undefined;
  const list = match[1] === 'servers' ? 'servers' : 'overrides';
  const key = match[2] ?? (JSON.parse(match[3] ?? '""') as string);
  return { list, key };
}

/** The name of the server whose entry `entry` is, in the file the diagnostic is about. */
function ownerOf(
  servers: readonly ConfiguredServer[],
  { file, source }: RuntimeDiagnostic,
  { list, key }: EntryPath,
  userFile: string,
): string | undefined {
  const named = (test: (server: ConfiguredServer) => boolean) =>
    servers.find((server) => test(server))?.config.name;
  if (list === 'overrides') {
    return file === userFile ? named(({ config }) => config.name === key) : undefined;
  }
  return named(({ config, origin }) => {
    switch (origin.source) {
      case 'user':
        return origin.file === file && config.name === key;
      case 'plugin':
        return origin.file === file && config.name === `${origin.plugin}__${key}`;
      case 'host':
        // The host's entries are in no file: their diagnostics name where they were given.
        return source === 'host' && config.name === `${origin.namespace}__${key}`;
    }
  });
}
