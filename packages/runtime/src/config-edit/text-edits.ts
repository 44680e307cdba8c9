// Each edit on the text of mcp.json, no file touched: the new text, checked before (the name, the
// size, no copied placeholder) and after (the server loads from it with no diagnostic of its own).
// A byte order mark is kept where it was.
import type { Diagnostic } from '@epoch-agent/infra';
import { type McpConfigLoad, type McpServerConfig, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { SERVER_NAME_PATTERN } from '../servers/server-names.js';
import { entryOverLimit } from './entry-limits.js';
import { placeholderPath } from './entry-secrets.js';
import { McpConfigWriteError } from './errors.js';
import type { Insertion } from './insert-member.js';
import { type AddServerInput, entryOf, renderServer } from './new-server.js';
import { planAdd } from './plan-add.js';
import { planRemove } from './plan-remove.js';
import { planReplace } from './plan-replace.js';
import { removedSince } from './remove-based-on.js';
import { applyDeletions } from './remove-item.js';

/**
 * addServer on the text of the file (`file` names it in messages): the new text, what was
 * inserted where, and the new server as the loader reads it. Throws McpConfigWriteError as
 * addServer does.
 */
export function addServerToText(
  text: string,
  file: string,
  server: AddServerInput,
): { readonly text: string; readonly inserted: Insertion; readonly config: McpServerConfig } {
  checkNewServer(server, file);
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const plan = planAdd(body, file, server.name, renderServer(server.name, entryOf(server)));
  if (!plan.ok) throw plan.error;
  const { offset, text: piece } = plan.value;
  const after = bom + body.slice(0, offset) + piece + body.slice(offset);
  const config = loaded(after, file, server.name, 'added');
  return { text: after, inserted: { offset: bom.length + offset, text: piece }, config };
}

/**
 * removeServer on the text of the file: the new text. Throws McpConfigWriteError as it does; with
 * `basedOn` (the version readServerEntry gave), `changed_since` when the entry is no longer the text
 * it versions.
 */
export function removeServerFromText(
  text: string,
  file: string,
  name: string,
  { basedOn }: { readonly basedOn?: string | undefined } = {},
): string {
  if (basedOn !== undefined) {
    const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
    const refusal = removedSince(body, file, name, basedOn);
    if (refusal !== undefined) throw refusal;
  }
  let out = text;
  // A name given twice: the loader uses the later entry, so both must go for the server to go.
  for (let removed = 0; ; removed++) {
    const bom = out.startsWith('\uFEFF') ? '\uFEFF' : '';
    const plan = planRemove(out.slice(bom.length), file, name);
    if (!plan.ok) {
      if (removed > 0 && plan.error.code === 'unknown_server') return out;
      throw plan.error;
    }
    out = bom + applyDeletions(out.slice(bom.length), plan.value);
  }
}

/**
 * replaceServerEntry on the text of the file: the new text. Throws as it does; with `basedOn` (the
 * version readServerEntry gave), `changed_since` when the entry is no longer the text it versions.
 */
export function replaceServerEntryInText(
  text: string,
  file: string,
  name: string,
  edited: string,
  { basedOn }: { readonly basedOn?: string | undefined } = {},
): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const plan = planReplace(text.slice(bom.length), file, name, edited, basedOn);
  if (!plan.ok) throw plan.error;
  const { text: body, entry } = plan.value;
  checkSize({ name, entry }, file, 'changed');
  const after = bom + body;
  loaded(after, file, name, 'changed');
  return after;
}

/** What a new server is refused for before any text is looked at: its name, size, placeholders. */
export function checkNewServer(server: AddServerInput, file: string): void {
  checkName(server.name, file);
  checkSize(server, file, 'added');
  checkNoPlaceholder(server, file);
}

function checkName(name: string, file: string): void {
  if (SERVER_NAME_PATTERN.test(name)) return;
  throw new McpConfigWriteError(
    'invalid_name',
    `server name ${JSON.stringify(name)} can only use letters, digits, "_" and "-" (it becomes part of tool names like mcp__<server>__<tool>, which model providers restrict); choose another name.`,
    { file, server: name },
  );
}

// How a refusal says what did not happen to the server.
type Edit = 'added' | 'changed';
const NOT_DONE: Record<Edit, string> = { added: 'was not added to', changed: 'was not changed in' };

function checkSize(server: AddServerInput, file: string, edit: Edit): void {
  const over = entryOverLimit(server.name, entryOf(server));
  if (over === undefined) return;
  // A name over the bound is not repeated: the message would be that long.
  const who = over.path === 'servers' ? 'the server' : `server "${server.name}"`;
  throw new McpConfigWriteError(
    'too_large',
    `${who} ${NOT_DONE[edit]} ${file}: ${over.message} Shorten it, or keep what is that large in a file the server reads.`,
    { file, server: server.name, field: over.path },
  );
}

// A copied entry carries placeholders for its secrets: written as they are, they would be sent to
// the server as if they were its key.
function checkNoPlaceholder(server: AddServerInput, file: string): void {
  const path = placeholderPath(entryOf(server));
  if (path === undefined) return;
  throw new McpConfigWriteError(
    'secret_placeholder',
    `server "${server.name}" was not added to ${file}: ${path} is a placeholder of a copied secret; write the value itself there.`,
    { file, server: server.name, field: `servers.${server.name}.${path}` },
  );
}

/**
 * The server as it loads from `text`, which it must do with no diagnostic of its own, but for a
 * `${VAR}` not set in this process: a variable is for the environment the server will start in
 * (an import writes the ones another client read; `add` of an entry whose secret is not exported
 * yet), and the start that lacks it fails naming it.
 */
function loaded(text: string, file: string, name: string, edit: Edit): McpServerConfig {
  const load: McpConfigLoad = parseMcpConfig(text, file);
  const prefix = `servers.${name}`;
  const diagnostics = load.diagnostics.filter(
    (d) =>
      refuses(d) &&
      (wholeFile(d) ||
        d.path === prefix ||
        d.path.startsWith(`${prefix}.`) ||
        d.path.startsWith(`${prefix}[`)),
  );
  const config = load.servers.find((server) => server.name === name);
  if (diagnostics.length === 0 && config !== undefined) return config;
  throw notLoaded(name, diagnostics, file, edit);
}

/** Whether a diagnostic of a new server keeps it out: all but an unset `${VAR}` (see loaded). */
export function refuses(d: Diagnostic): boolean {
  return d.code !== 'unset_variable';
}

/** A diagnostic of the whole text, not of one entry: every new server in it has it. */
export function wholeFile(d: Diagnostic): boolean {
  return d.code === 'syntax_error' || d.code === 'too_deep';
}

/** The refusal of server `name`, which did not load (with `diagnostics` of its own, or none). */
export function notLoaded(
  name: string,
  diagnostics: readonly Diagnostic[],
  file: string,
  edit: Edit,
): McpConfigWriteError {
  const why = diagnostics[0]?.message ?? 'it did not load';
  return new McpConfigWriteError(
    'invalid_server',
    `server "${name}" ${NOT_DONE[edit]} ${file}: ${why}`,
    { file, server: name, diagnostics },
  );
}
