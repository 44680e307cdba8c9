// The one error of editing mcp.json. Callers decide on `code`; the message is for the person who
// asked for the change and names the file and the server. It never repeats a command, URL or env
// value: those can hold tokens.
import type { Diagnostic } from '@epoch-agent/infra';

export type McpConfigWriteErrorCode =
  /**
   * The server name is not `[A-Za-z0-9_-]+` (it becomes part of tool names sent to model
   * providers), or the tool name of setServerChoice holds `*` (the lists read it as a pattern).
   */
  | 'invalid_name'
  /**
   * A server of that name is already in the file (or a host's or plugin's), or one whose name
   * differs only in case.
   */
  | 'duplicate_server'
  /** removeServer, setServerChoice: no server of that name is in the file. */
  | 'unknown_server'
  /** The file does not parse; `diagnostics` says where. Nothing was written. */
  | 'syntax_error'
  /** The file parses but is not `{ "servers": { … } }` (the top level or `servers` is not an object). */
  | 'invalid_shape'
  /** The file's bytes are not UTF-8, so a text edit could not keep them as they are. */
  | 'invalid_encoding'
  /** The server as given would not load (empty command, a URL that is not http(s), …); see `diagnostics`. */
  | 'invalid_server'
  /**
   * setServerChoice: a field it has to read or change holds what it cannot edit without guessing
   * (`"enabled": "no"`, `"exclude_tools": "x"`, both spellings of one field); `field` says which.
   * replaceServerEntry: the server's entry is not an object of fields.
   */
  | 'invalid_value'
  /**
   * setServerChoice: the tool to turn on is turned off by a `*` pattern of exclude_tools, which an
   * edit of one name cannot undo; `field` is the pattern's path.
   */
  | 'excluded_by_pattern'
  /**
   * replaceServerEntry: the edited entry is not JSON of one entry (it does not parse, is not an
   * object, or wraps several servers).
   */
  | 'invalid_entry'
  /** replaceServerEntry: the edited entry is wrapped under another name; a rename is not an edit. */
  | 'renamed'
  /**
   * A value is a secret's placeholder (`<secret: env.API_KEY>`) that stands for no secret of the
   * entry being edited, or is in a new entry (a copied one, pasted); `field` says where.
   */
  | 'secret_placeholder'
  /**
   * A write based on what a front end showed (replaceServerEntry's `basedOn`, setServerChoice's
   * `shown`) when the file says otherwise now: it changed since (by hand, or from another page).
   */
  | 'changed_since'
  /** Another process held `<file>.lock` for the whole wait. */
  | 'lock_timeout'
  /** A string of the new server, or its whole entry, is over ENTRY_LIMITS; `field` says which. */
  | 'too_large'
  /**
   * The file, its lock or its temp file cannot be read or written as it stands: not a regular
   * file, too large, write-protected, permission denied, a read-only file system.
   */
  | 'unusable_file';

export interface McpConfigWriteErrorData {
  readonly file: string;
  /** The server the change was about, when there is one. */
  readonly server?: string;
  /** The loader's diagnostics, for `syntax_error` and `invalid_server`; empty otherwise. */
  readonly diagnostics?: readonly Diagnostic[];
  /** The path of the field at fault (`servers.x.args[0]`), for `too_large` and setServerChoice's. */
  readonly field?: string;
}

export class McpConfigWriteError extends Error {
  override readonly name = 'McpConfigWriteError';
  readonly code: McpConfigWriteErrorCode;
  readonly file: string;
  readonly server: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
  readonly field: string | undefined;

  constructor(code: McpConfigWriteErrorCode, message: string, data: McpConfigWriteErrorData) {
    super(message);
    this.code = code;
    this.file = data.file;
    this.server = data.server;
    this.diagnostics = data.diagnostics ?? [];
    this.field = data.field;
  }
}

export function isMcpConfigWriteError(
  error: unknown,
  code?: McpConfigWriteErrorCode,
): error is McpConfigWriteError {
  return error instanceof McpConfigWriteError && (code === undefined || error.code === code);
}
