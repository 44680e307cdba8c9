// Where on the page each diagnostic of loading the servers belongs: on the card of the server it
// concerns (runtime's diagnosticServer), on a card of its own for an entry the loader did not load
// (so a misspelled field does not make the server vanish), at the top for a file that could not be
// read at all, and in the file-level list for the rest.
import {
  type ConfiguredServer,
  diagnosticEntry,
  diagnosticServer,
  type RuntimeDiagnostic,
} from '@epoch-agent/runtime';
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
    const entry = diagnosticEntry(diagnostic.path);
    if (entry === undefined) {
      fileLevel.push(diagnostic);
      continue;
    }
    const owner = diagnosticServer(servers, diagnostic, userFile);
    if (owner !== undefined) {
      // Added to, never copied: one server may have 100,000 diagnostics (one per env key).
      const own = byServer.get(owner);
      if (own === undefined) byServer.set(owner, [diagnostic]);
      else own.push(diagnostic);
    } else if (entry.list === 'servers') {
      const id = `${diagnostic.source}\u0000${diagnostic.file}\u0000${entry.key}`;
      const orphan = orphans.get(id) ?? { key: entry.key, diagnostics: [] };
      orphan.diagnostics.push(diagnostic);
      orphans.set(id, orphan);
    } else {
      fileLevel.push(diagnostic);
    }
  }
  const notLoaded: McpGroups<NotLoadedView[]> = { user: [], project: [], host: [], plugin: [] };
  for (const { key, diagnostics: about } of orphans.values()) {
    // Only an error leaves an entry out; warnings alone about an entry no source has (none expected)
    // stay in the file-level list.
    if (!about.some(({ severity }) => severity === 'error')) {
      for (const diagnostic of about) fileLevel.push(diagnostic);
      continue;
    }
    const first = [...about].sort((a, b) => a.line - b.line || a.column - b.column)[0];
    if (first === undefined) continue;
    const { source, file, line, column } = first;
    notLoaded[source].push({ name: key, source, at: { file, line, column }, problems: about });
  }
  return { byServer, notLoaded, unreadable, fileLevel };
}
