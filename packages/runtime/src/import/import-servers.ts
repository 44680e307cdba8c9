// The servers found in other clients' files, put into the user's mcp.json in one write: a name
// already taken (by an entry of the file or a server of the host or a plugin, case aside, as for
// `add`) is a clash, skipped or, with `rename`, imported as `<name>-<client>`; an entry that would
// not load is refused alone. What may be shown of each entry has its secrets as placeholders.
import { parseTree } from 'jsonc-parser';
import {
  addServers,
  type McpConfigWriteErrorCode,
  redactEntry,
  renderServer,
} from '../config-edit/index.js';
import type { ClientName, FoundServer } from './found-server.js';

export interface ImportOptions {
  /** Import a clashing server under a new name instead of skipping it. */
  readonly rename?: boolean;
  /** Write nothing: the result says what would be written. */
  readonly dryRun?: boolean;
  /** Names the file does not hold that are taken all the same: the host's and plugins' servers. */
  readonly taken?: readonly string[];
  /** How long to wait for another writer's lock. */
  readonly lockWaitMs?: number;
}

export type ImportOutcome =
  | { readonly kind: 'added' }
  /** Added under `name`, since `clashWith` held its own. */
  | { readonly kind: 'renamed'; readonly clashWith: string }
  /** Not added: `clashWith` holds the name (case aside). */
  | { readonly kind: 'clash'; readonly clashWith: string }
  /** Not added: the entry would not load, or its name is refused; `message` says why. */
  | { readonly kind: 'refused'; readonly code: McpConfigWriteErrorCode; readonly message: string };

export interface ImportedServer extends FoundServer {
  readonly outcome: ImportOutcome;
  /** `"<name>": { … }` as it goes in the file, each secret a placeholder: what may be shown. */
  readonly shown: string;
}

export interface ImportResult {
  /** The mcp.json written (absolute): the user's, or the project's with scope `project`. */
  readonly file: string;
  /** It did not exist: it was (or would be) created. */
  readonly created: boolean;
  /** Whether the file was written. */
  readonly written: boolean;
  readonly servers: readonly ImportedServer[];
}

// What a renamed server is called after: `github-claude`.
const SUFFIX: Readonly<Record<ClientName, string>> = {
  'claude-desktop': 'claude',
  'claude-code': 'claude-code',
  cursor: 'cursor',
  vscode: 'vscode',
  windsurf: 'windsurf',
  gemini: 'gemini',
  codex: 'codex',
};

/** Imports `found` into the mcp.json at `file` (see the header). */
export async function importServers(
  file: string,
  found: readonly FoundServer[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  let decided: ImportedServer[] = [];
  const result = await addServers(
    file,
    (names) => {
      decided = decide(found, [...names, ...(options.taken ?? [])], options.rename === true);
      return decided
        .filter(({ outcome }) => outcome.kind !== 'clash')
        .map(({ name, entry }) => ({ name, entry }));
    },
    {
      write: options.dryRun !== true,
      ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
    },
  );
  const refused = new Map(result.refused.map((error) => [error.server, error]));
  const servers = decided.map((server): ImportedServer => {
    // A skipped server was not tried: the refusal under its name is another server's.
    const error = server.outcome.kind === 'clash' ? undefined : refused.get(server.name);
    if (error === undefined) return server;
    return { ...server, outcome: { kind: 'refused', code: error.code, message: error.message } };
  });
  return { file: result.file, created: result.created, written: result.written, servers };
}

function decide(
  found: readonly FoundServer[],
  names: readonly string[],
  rename: boolean,
): ImportedServer[] {
  const taken = new Map(names.map((name) => [name.toLowerCase(), name]));
  const tried = new Map<string, number>();
  return found.map((server) => {
    const holder = taken.get(server.name.toLowerCase());
    let name = server.name;
    let outcome: ImportOutcome = { kind: 'added' };
    if (holder !== undefined) {
      if (rename) {
        name = freeName(`${server.name}-${SUFFIX[server.client]}`, taken, tried);
        outcome = { kind: 'renamed', clashWith: holder };
      } else outcome = { kind: 'clash', clashWith: holder };
    }
    if (outcome.kind !== 'clash') taken.set(name.toLowerCase(), name);
    return { ...server, name, outcome, shown: shownEntry(name, server.entry) };
  });
}

/**
 * `base`, or `base-2`, `base-3`, … : the first that is not taken. `tried` keeps where each base's
 * count got to, so ten thousand servers whose names all become one name cost n, not n².
 */
function freeName(
  base: string,
  taken: ReadonlyMap<string, string>,
  tried: Map<string, number>,
): string {
  const key = base.toLowerCase();
  let n = tried.get(key) ?? 1;
  let name = n === 1 ? base : `${base}-${n}`;
  while (taken.has(name.toLowerCase())) name = `${base}-${++n}`;
  tried.set(key, n);
  return name;
}

/** The entry as it is written, two spaces deep, each secret a placeholder. */
function shownEntry(name: string, entry: { readonly [field: string]: unknown }): string {
  const member = renderServer(name, entry)({ inline: false, indent: '', unit: '  ', eol: '\n' });
  const text = `{${member}}`;
  const node = parseTree(text)?.children?.[0]?.children?.[1];
  // Always there: the text was rendered from JSON values a line above.
  if (node === undefined) return member;
  return `${JSON.stringify(name)}: ${redactEntry(text, node).text}`;
}
