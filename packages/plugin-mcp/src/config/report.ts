// How a problem in mcp.json is told: the public diagnostic codes, where the entry being read sits,
// and a diagnostic at a path inside it. Every step of reading a file reports through it.
import {
  type Diagnostic,
  formatPath,
  type PathSegment,
  type Position,
  type Severity,
} from '@epoch-agent/infra';
import type { Locator } from './locate.js';

/** Every `code` a config diagnostic can carry. Errors drop what they are in; warnings drop nothing. */
export const MCP_CONFIG_DIAGNOSTIC_CODES = [
  // errors
  'syntax_error',
  'too_deep',
  'unreadable_file',
  'invalid_type',
  'invalid_value',
  'out_of_range',
  'missing_field',
  /** A server name that differs from an earlier one only in case: that later entry is not loaded. */
  'name_case_conflict',
  /** A `${` in a value that is not `${NAME}` or `${NAME:-default}`. */
  'invalid_variable',
  // warnings
  /** A `${NAME}` without a default whose variable is not set in the environment the file is read in. */
  'unset_variable',
  'unknown_field',
  'source_field',
  'ignored_field',
  'duplicate_key',
  'duplicate_field',
  'alias_conflict',
] as const;
export type McpConfigDiagnosticCode = (typeof MCP_CONFIG_DIAGNOSTIC_CODES)[number];

/**
 * Where an entry is read: a server of `servers`, or an entry of `overrides` (the user's choice
 * about a plugin's or host's server, which may say only whether it runs and which tools it offers).
 */
export type EntryScope = 'servers' | 'overrides';

/** Where the entry being read sits: which file, and how to find a path's text. */
export interface Where {
  readonly file: string;
  readonly locator: Locator;
  /** What a relative `cwd` is relative to. Default: the directory of `file`. */
  readonly baseDir?: string;
  /**
   * Entries a host gives in code: their values are used as given, no `${VAR}` read in them (the
   * host has the values in hand and passes them itself).
   */
  readonly givenInCode?: true;
}

export function diagnostic(
  where: Where,
  severity: Severity,
  code: McpConfigDiagnosticCode,
  path: readonly PathSegment[],
  message: string,
  at: 'key' | 'value' | Position = 'value',
): Diagnostic {
  const position =
    at === 'key' ? where.locator.key(path) : at === 'value' ? where.locator.value(path) : at;
  return { severity, code, file: where.file, path: formatPath(path), message, ...position };
}

/** Reports a problem at a path inside the server entry being read. */
export type Report = (
  severity: Severity,
  code: McpConfigDiagnosticCode,
  path: readonly PathSegment[],
  message: string,
  at?: 'key' | 'value',
) => void;

export function reporter(
  where: Where,
  server: string,
  into: Diagnostic[],
  scope: EntryScope = 'servers',
): Report {
  return (severity, code, path, message, at = 'value') =>
    into.push(diagnostic(where, severity, code, [scope, server, ...path], message, at));
}
