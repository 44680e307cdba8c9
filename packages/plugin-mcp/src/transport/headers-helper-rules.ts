// What a headers helper is (a command's or a host's function: README "Headers from a command"),
// what it is asked with, and the bounds it runs within. Imports nothing: the root entry exports it.

/** What a helper gave is used this long, then it is asked again before the next request. */
export const HEADERS_HELPER_LIFETIME_MS = 5 * 60_000;
/** A helper that has not finished by then is killed (its whole process group) and fails. */
export const HEADERS_HELPER_TIMEOUT_MS = 10_000;
/** The most a helper may print on stdout; more is a failure, not headers cut short. */
export const HEADERS_HELPER_MAX_OUTPUT_BYTES = 64 * 1024;

/** Why the headers are asked for now. */
export type McpHeadersReason = 'connect' | 'refused' | 'expired';

export interface McpHeadersRequest {
  /** The server's name. */
  readonly server: string;
  /** Its URL, as the connection uses it. */
  readonly url: string;
  readonly reason: McpHeadersReason;
  /** Aborted when the helper's time (HEADERS_HELPER_TIMEOUT_MS) is up. */
  readonly signal: AbortSignal;
}

/**
 * A host's headers helper: the headers for one remote server, merged over its `headers`, or
 * undefined for a server it gives none. Asked on the same schedule as a `headers_helper` command
 * (a server whose entry has one runs that instead). What it gives is treated as a secret.
 */
export type McpHeadersHelper = (
  request: McpHeadersRequest,
) =>
  | Readonly<Record<string, string>>
  | undefined
  | Promise<Readonly<Record<string, string>> | undefined>;
