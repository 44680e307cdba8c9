// What every client's reader shares: the file's text parsed (JSONC in client-json.ts, TOML in
// codex.ts), and each server of its servers object translated by the client's rules.
import { join, sep } from 'node:path';
import { parseClientJson } from './client-json.js';
import type {
  ClientFile,
  ClientFileRead,
  ClientName,
  ClientReader,
  FoundServer,
  ImportPlaces,
} from './found-server.js';
import { EntryDraft, type FieldRules, translateEntry } from './translate-entry.js';
import type { EditorInput, RefSyntax } from './variable-refs.js';

/** How one client's servers are read: its field rules and its variable syntax. */
export interface ServerFormat {
  readonly rules: FieldRules;
  readonly refs: RefSyntax;
  /** VS Code's `inputs`, by id. */
  readonly inputs?: ReadonlyMap<string, EditorInput>;
}

/**
 * A client's file of the user's (`user`, absolute) and, with a project, the project's at `inProject`
 * under it: where Cursor, Gemini CLI and VS Code each keep one of each.
 */
export function userAndProject(
  client: ClientName,
  places: ImportPlaces,
  user: string,
  inProject: readonly string[],
): ClientFile[] {
  const files: ClientFile[] = [{ client, path: user, scope: 'user' }];
  if (places.project !== undefined) {
    files.push({ client, path: join(places.project, ...inProject), scope: 'project' });
  }
  return files;
}

/** The reader of a JSON file whose servers are its member `field` (`mcpServers`), in `format`. */
export function readMember(field: string, format: ServerFormat): ClientReader['read'] {
  return (text, file, places) => {
    const parsed = parseClientJson(text, file);
    if (!parsed.ok) return parsed;
    return readServers(file, member(parsed.value, field), field, format, places);
  };
}

/** The member `key` of an object, or undefined. */
export function member(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Every server of `servers` (an object keyed by name) translated; not an object: the problem. */
export function readServers(
  file: ClientFile,
  servers: unknown,
  field: string,
  format: ServerFormat,
  places: ImportPlaces,
): ClientFileRead {
  if (servers === undefined) return { ...file, ok: true, servers: [] };
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    return { ...file, ok: false, problem: `${file.path}: "${field}" is not an object of servers.` };
  }
  const found: FoundServer[] = [];
  for (const [original, raw] of Object.entries(servers)) {
    const draft = new EntryDraft(
      {
        syntax: format.refs,
        home: places.home,
        workspace: file.scope === 'project' ? places.project : undefined,
        separator: places.platform === 'win32' ? '\\' : sep,
        inputs: format.inputs ?? new Map(),
      },
      places.platform,
    );
    translateEntry(raw, format.rules, draft);
    const name = ourName(original);
    if (name !== original) {
      draft.notes.unshift(
        `its name "${original}" is written "${name}" (letters, digits, _ and - only).`,
      );
    }
    found.push({ ...fileOf(file), original, name, entry: draft.entry, notes: draft.notes });
  }
  return { ...file, ok: true, servers: found };
}

function fileOf({
  client,
  path,
  scope,
}: ClientFile): Pick<FoundServer, 'client' | 'file' | 'scope'> {
  return { client, file: path, scope };
}

/** A name of ours for a name of theirs: what our names cannot hold becomes `-`. */
function ourName(original: string): string {
  const name = original.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return name === '' ? 'server' : name;
}
