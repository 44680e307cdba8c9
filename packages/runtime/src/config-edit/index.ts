// Editing the user's mcp.json, and the one module the rest of the runtime imports it from: every
// edit (add, import, remove, replace an entry, turn on or off) is a TEXT EDIT. It is how the
// connectors page and the `epoch mcp` commands write the file.
//
// The criteria: not one byte of the user's comments, key order, indentation or aliases
// (`connect_timeout` / `type`) changes.
// - The file is the user's. They write comments in it, order servers their way, indent their way,
//   and use aliases (`type` for `transport`, `connectTimeout` for `connect_timeout`). Read -> modify
//   -> write-whole would parse all of that away and print the file back in our format. So the new
//   entry is one piece of text inserted into the original: every byte outside it stays as it was.
//   The entry follows the file's own indentation (tabs or spaces, the width it uses) and line
//   endings (LF or CRLF); a file written on one line gets it on that line. One cost of a single
//   inserted piece: a comment at the end of the last entry's line, when no comma follows that
//   entry, ends up after the new entry (the comma has to go right after the old one).
// - The page asks for three things only: transport, command or URL, env (`epoch mcp add` also takes
//   headers; `epoch mcp add-json` a whole entry). Everything else (timeout, connect_timeout, cwd,
//   …) is written by hand, so the result names the file written and the fields left to write there
//   (derived from the plugin's MCP_CONFIG_FIELDS, not a list kept here).
// - The name is held to [A-Za-z0-9_-] (stricter than a hand-written file): it goes verbatim into
//   tool names `mcp__<server>__<tool>` that providers reject otherwise. A name already in the file
//   is refused: the page adds, it does not overwrite what the user wrote.
// - A file that does not parse is never written: after a syntax error nothing in the text can be
//   trusted to mean what it seems to. The caller gets the loader's diagnostic.
// - The result must load: the edited text goes through the plugin's parseMcpConfig first, and the
//   new server must come out of it with no diagnostic at all, or nothing is written.
// - The write is atomic (infra writeFileAtomic: a reader sees the old file or the new one) and keeps
//   the file's mode; a new file is 0600 in a 0700 directory (it can hold tokens). Writers take
//   `<file>.lock` (infra's withFileLock), so two processes adding at once both end up in the file.
// - addServers (`epoch mcp import`) adds several servers in one write under the lock, each placed as
//   addServer places it, one after the other, so all of them are one inserted piece; a server
//   addServer would refuse is refused alone and the others go in. The text is parsed once and the
//   result loaded once (add-many.ts), so ten thousand servers cost one large edit, not one each.
// - removeServer is the same kind of edit. It undoes addServer exactly (add then remove gives back
//   the original bytes); a hand-written entry takes the comment block directly above it along (no
//   blank line between), and every other comment stays — see remove-item.ts. One exception: when
//   addServer had to create `servers` (or the whole file), removing that last server leaves
//   `"servers": {}` — an empty `servers` and a missing one are the same text once a server is in
//   it, and the empty one is the form to keep.
// - replaceServerEntry is the editor's write: the bytes of one entry's object are replaced by the
//   edited text, and no others (the entry's key, the comments around it, the other entries keep
//   every byte); readServerEntry gives that text out with each secret as a placeholder, which the
//   write puts back. Checked as addServer checks a new entry — see plan-replace.ts.
// - A front end's write says what it was based on: replaceServerEntry's and removeServer's
//   `basedOn` (the `version` readServerEntry gave; entry-version.ts), setServerChoice's `shown`. A file that moved on since
//   is refused (`changed_since`), so an edit made meanwhile (by hand, on another page) is never
//   erased.
// - setServerChoice turns a server, or some of its tools, on or off: the field or list element that
//   says so changes and nothing else, and turning a thing off then on again gives back the original
//   bytes — see plan-choice.ts. A plugin's or the host's server is not in the file; its choice
//   goes under `overrides`, which is created when needed (the file too) and goes once empty.
//
// Errors are thrown, as McpConfigWriteError with a `code` (and the loader's `diagnostics` for
// `syntax_error`, positions in the file, and `invalid_server`, positions in the text that would
// have been written); nothing is written when one is thrown. A throw rather than a result union:
// every refusal ends the request the same way, and the caller branches on `code` alone.

export type { McpConfigWriteOptions } from './config-file.js';
export { type EntryJson, parseEntryJson } from './entry-json.js';
export { ENTRY_LIMITS, sizeText } from './entry-limits.js';
export { redactEntry } from './entry-secrets.js';
export {
  isMcpConfigWriteError,
  McpConfigWriteError,
  type McpConfigWriteErrorCode,
  type McpConfigWriteErrorData,
} from './errors.js';
export {
  type AddServerResult,
  type AddServersOptions,
  type AddServersResult,
  addServer,
  addServers,
  type ChoiceEditResult,
  type ChoiceWriteOptions,
  type RemoveServerOptions,
  type RemoveServerResult,
  type ReplaceServerEntryOptions,
  type ReplaceServerEntryResult,
  readServerEntry,
  removeServer,
  replaceServerEntry,
  setServerChoice,
} from './file-edits.js';
export { type AddServerInput, renderServer } from './new-server.js';
export type { ChoiceChange, ChoiceEdit, ChoiceTarget } from './plan-choice.js';
export type { EntryForEditing } from './plan-replace.js';
export { addServerToText, removeServerFromText, replaceServerEntryInText } from './text-edits.js';
