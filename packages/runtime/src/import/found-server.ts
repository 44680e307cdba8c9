// What reading another MCP client's config gives: each of its servers as an entry of our mcp.json,
// with a note for everything of it that did not map (or was changed on the way), and where the
// client keeps its files on this machine.
import { join } from 'node:path';

/** The clients `epoch mcp import` reads, by the name `--from` takes. */
export const CLIENT_NAMES = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'windsurf',
  'gemini',
  'codex',
] as const;

export type ClientName = (typeof CLIENT_NAMES)[number];

export function isClientName(name: string): name is ClientName {
  return (CLIENT_NAMES as readonly string[]).includes(name);
}

/**
 * Where to look: the home and project directories come in as parameters (the CLI passes
 * os.homedir() and the working directory), so nothing here reads the real home by itself.
 */
export interface ImportPlaces {
  readonly home: string;
  /** The project (workspace) whose project-scope files are read; none: user files only. */
  readonly project?: string | undefined;
  readonly platform: NodeJS.Platform;
  /** Windows' %APPDATA%; default `<home>\AppData\Roaming`. */
  readonly appData?: string | undefined;
  /** Linux's $XDG_CONFIG_HOME; default `<home>/.config`. */
  readonly xdgConfigHome?: string | undefined;
}

/** A user scope file is the person's own; a project scope file belongs to `places.project`. */
export type ClientScope = 'user' | 'project';

/** One file a client keeps servers in (Claude Code keeps two scopes in `~/.claude.json`). */
export interface ClientFile {
  readonly client: ClientName;
  readonly path: string;
  readonly scope: ClientScope;
  /**
   * The part of the file this scope's servers are in, when one file holds two scopes (Claude
   * Code's `~/.claude.json`: `projects`); none: the whole file. The same file and part is read once.
   */
  readonly part?: 'projects';
}

/** One server of another client, as an entry of our mcp.json. */
export interface FoundServer {
  readonly client: ClientName;
  /** The file it was read from. */
  readonly file: string;
  readonly scope: ClientScope;
  /** Its name in that file. */
  readonly original: string;
  /** The name it gets in ours: letters, digits, `_` and `-` only. */
  readonly name: string;
  /** Our entry, field by field; env and header values are secrets, as in the file. */
  readonly entry: { readonly [field: string]: unknown };
  /** Each thing that did not map, or was written differently, as a sentence naming the field. */
  readonly notes: readonly string[];
}

/** What one client file holds, or why it could not be read. */
export type ClientFileRead =
  | (ClientFile & { readonly ok: true; readonly servers: readonly FoundServer[] })
  | (ClientFile & { readonly ok: false; readonly problem: string });

/** The directory desktop apps keep their settings in: `~/Library/Application Support`, … */
export function appConfigDir(places: ImportPlaces): string {
  switch (places.platform) {
    case 'darwin':
      return join(places.home, 'Library', 'Application Support');
    case 'win32':
      return places.appData ?? join(places.home, 'AppData', 'Roaming');
    default:
      return places.xdgConfigHome ?? join(places.home, '.config');
  }
}

/** One client: what it is called, where its files are, and how one of them is read. */
export interface ClientReader {
  /** As a person names it: `Claude Desktop`. */
  readonly label: string;
  /** Its files for these places, whether they exist or not. */
  readonly files: (places: ImportPlaces) => readonly ClientFile[];
  /** The servers of one of its files (`text` is the file's content). */
  readonly read: (text: string, file: ClientFile, places: ImportPlaces) => ClientFileRead;
}
