// Model-visible tool names: `mcp__<server>__<tool>`, derived from the raw (server, tool) identity
// deterministically, in one place.
//
// A provider rejects a tool name outside `^[a-zA-Z0-9_-]{1,128}$` with a hard 400 for the whole
// request (a `:` in one name did that), so the name is sanitized and capped here, never trusted
// from the server or the config. Two raw names that sanitize to the same string (`a.b`, `a_b`)
// still collide: `assignToolNames` settles that within one server, and the ToolRegistry across
// servers.

import { createHash } from 'node:crypto';

/** The most any provider accepts. */
export const MAX_TOOL_NAME_LENGTH = 128;

/** What every model-visible MCP tool name starts with. */
export const TOOL_NAME_PREFIX = 'mcp__';
const PREFIX = TOOL_NAME_PREFIX;
const SEPARATOR = '__';
const HASH_HEX_LENGTH = 8;
/** `_` + 8 hex characters. */
const HASH_SUFFIX_LENGTH = 1 + HASH_HEX_LENGTH;
/** The prefix, one character of the name, and the hash must fit. */
export const MIN_TOOL_NAME_LENGTH = PREFIX.length + 1 + HASH_SUFFIX_LENGTH;

export interface ToolNameOptions {
  /**
   * Longest name the model provider accepts: 128 (the default) for most, 64 for providers that
   * allow only 64. Between `MIN_TOOL_NAME_LENGTH` and 128.
   */
  readonly maxLength?: number;
}

/**
 * `mcp__<server>__<tool>`, always matching `^[a-zA-Z0-9_-]{1,maxLength}$`. Every other character
 * becomes `_`. A name over the limit is cut and ends in `_` + 8 hex characters of the sha256 of
 * the raw `server\0tool`, so two long names that share their first characters stay apart. Pure:
 * the same input gives the same name in every process, which the schema cache and the permission
 * rules that remember tool names rely on.
 */
export function prefixedName(server: string, tool: string, options: ToolNameOptions = {}): string {
  return cappedName(serverPrefix(server), server, tool, checkedMaxLength(options));
}

export interface AssignToolNamesOptions {
  readonly server: string;
  /** Raw MCP tool names, as tools/list gave them. */
  readonly tools: readonly string[];
  /** Names already taken on this server (the resource tools); a tool that collides with one yields. */
  readonly reserved: readonly string[];
  readonly nameOptions?: ToolNameOptions;
}

/**
 * Names for every tool of one server, in the order given. A tool whose `prefixedName` is shared
 * with another tool of the server or with a reserved name gets the hash of its raw identity
 * appended instead, and so does every other tool in that group: the result never depends on the
 * order tools/list returned. Only a server that names a tool after another's hashed name (or a
 * sha256 prefix collision) can still produce a duplicate; that one is left to the ToolRegistry,
 * which settles collisions across servers the same way.
 */
export function assignToolNames(options: AssignToolNamesOptions): string[] {
  const { server, tools, reserved } = options;
  const maxLength = checkedMaxLength(options.nameOptions ?? {});
  // Once per server, not per tool: a server with hundreds of tools is named on every connect.
  const prefix = serverPrefix(server);
  const base = tools.map((tool) => cappedName(prefix, server, tool, maxLength));
  const uses = new Map<string, number>();
  for (const name of [...base, ...reserved]) {
    uses.set(name, (uses.get(name) ?? 0) + 1);
  }
  return tools.map((tool, index) => {
    const name = base[index] as string;
    if (uses.get(name) === 1) {
      return name;
    }
    return withHashSuffix(prefix + sanitize(tool), identityHash(server, tool), maxLength);
  });
}

function checkedMaxLength(options: ToolNameOptions): number {
  const maxLength = options.maxLength ?? MAX_TOOL_NAME_LENGTH;
  if (
    !Number.isInteger(maxLength) ||
    maxLength < MIN_TOOL_NAME_LENGTH ||
    maxLength > MAX_TOOL_NAME_LENGTH
  ) {
    throw new RangeError(
      `tool name maxLength must be an integer from ${MIN_TOOL_NAME_LENGTH} to ${MAX_TOOL_NAME_LENGTH} ` +
        `(room for "${PREFIX}", a character and the ${HASH_SUFFIX_LENGTH}-character hash), got ${maxLength}`,
    );
  }
  return maxLength;
}

/** `mcp__<server>__`, sanitized: what the model-visible names of a server's tools start with. */
export function serverPrefix(server: string): string {
  return `${PREFIX}${sanitize(server)}${SEPARATOR}`;
}

/** The name under `prefix`, cut to `maxLength` with the hash of the raw identity when too long. */
function cappedName(prefix: string, server: string, tool: string, maxLength: number): string {
  const full = prefix + sanitize(tool);
  return full.length <= maxLength
    ? full
    : withHashSuffix(full, identityHash(server, tool), maxLength);
}

// One `_` per code point, so a character outside the BMP does not turn into two.
function sanitize(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/gu, '_');
}

// NUL separates the parts: server names come from config keys and never hold one in practice.
function identityHash(server: string, tool: string): string {
  return createHash('sha256')
    .update(`${server}\0${tool}`, 'utf8')
    .digest('hex')
    .slice(0, HASH_HEX_LENGTH);
}

function withHashSuffix(full: string, hash: string, maxLength: number): string {
  return `${full.slice(0, maxLength - HASH_SUFFIX_LENGTH)}_${hash}`;
}
