// What went wrong between us and a remote server, in words a person can act on: the connection
// itself failed (refused, reset, a host that does not resolve: the server is gone, so a live
// connection counts as dead), or the server answered, but not as an MCP endpoint (an HTTP error
// status, a web page). Decided on typed errors and error codes (the SDK's SdkHttpError, SseError
// and SdkError codes, Node's and undici's socket error codes), never on message text. A body is
// never quoted whole: a web page becomes "not an MCP endpoint", any other body its first line.
import { createRequire } from 'node:module';
import { redactUrl } from '@epoch-agent/infra';
import { SdkError, SdkErrorCode, SdkHttpError, SseError } from '@modelcontextprotocol/client';
import type { Scrubber } from '../secrets.js';
import type { Redirect } from '../transport/redirects.js';

/** A connection to the server that failed below HTTP. */
export interface NetworkFailure {
  /** The connection broke after the request went out: a call may have run on the server. */
  readonly afterSending: boolean;
  /** What happened, with the error's own words, e.g. `the connection was refused (connect ECONNREFUSED 127.0.0.1:4000)`. */
  readonly text: string;
}

const NETWORK_CODES = new Map<string, { readonly what: string; readonly afterSending: boolean }>([
  ['ECONNREFUSED', { what: 'the connection was refused', afterSending: false }],
  ['ENOTFOUND', { what: 'the host name does not resolve', afterSending: false }],
  ['EAI_AGAIN', { what: 'the host name could not be resolved', afterSending: false }],
  ['EHOSTUNREACH', { what: 'the host is unreachable', afterSending: false }],
  ['ENETUNREACH', { what: 'the network is unreachable', afterSending: false }],
  ['UND_ERR_CONNECT_TIMEOUT', { what: 'connecting timed out', afterSending: false }],
  ['ECONNRESET', { what: 'the connection was reset', afterSending: true }],
  ['EPIPE', { what: 'the connection broke', afterSending: true }],
  ['ETIMEDOUT', { what: 'the connection timed out', afterSending: true }],
  // undici's "other side closed": the server closed the socket without answering.
  ['UND_ERR_SOCKET', { what: 'the server closed the connection', afterSending: true }],
]);

/** The socket failure behind `error` (fetch wraps it in its `cause`), if that is what it is. */
export function networkFailure(error: unknown): NetworkFailure | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    const known = typeof code === 'string' ? NETWORK_CODES.get(code) : undefined;
    if (code !== undefined && known !== undefined) {
      // An AggregateError (every address of a dual-stack host refused) has no message of its own.
      const detail = e.message === '' ? code : e.message;
      return { afterSending: known.afterSending, text: `${known.what} (${detail})` };
    }
  }
  return undefined;
}

/**
 * What the server answered, when it answered something that is not MCP: the request, the status
 * with its reason, the URL (redacted), what the body was, and what to check. Undefined for any
 * other failure. `url` is the server's configured URL.
 */
export function httpAnswer(
  error: unknown,
  url: string,
  scrub: Scrubber,
  redirect?: Redirect,
): string | undefined {
  const where = redactUrl(url);
  if (error instanceof SdkHttpError) {
    const { status } = error;
    const request = `${methodOf(error.code)} ${where}`;
    const moved = redirected(status, redirect);
    if (moved !== undefined) return `${answered(request, status)}${moved}`;
    const body = bodyOf(error.data.text, scrub);
    // The reason is the server's text too: it may echo what it was sent.
    const reason = scrub(reasonOf(status, error.statusText));
    return `${answered(request, status, reason)}${body}. ${adviceFor(status)}`;
  }
  if (error instanceof SseError) {
    const request = `GET ${where} (the SSE event stream)`;
    if (error.code === undefined) {
      // The stream was accepted, then ended or broke before a valid "endpoint" event: EventSource
      // says so with neither a status nor (for an end) a message.
      const why = error.event?.message;
      const detail = why === undefined || why === '' ? '' : ` (${scrub(oneLine(why))})`;
      return `the event stream of GET ${where} sent no valid "endpoint" event before it ended${detail}: it is not an MCP SSE endpoint, or its event stream is malformed. Check "url" (and whether the server uses Streamable HTTP: "type": "http").`;
    }
    // EventSource reports a 200 whose content type is not text/event-stream with the 200.
    if (error.code === 200) {
      return `${answered(request, 200)}, but not with an event stream: it is not an MCP SSE endpoint. Check "url" (and whether the server uses Streamable HTTP: "type": "http").`;
    }
    const moved = redirected(error.code, redirect);
    if (moved !== undefined) return `${answered(request, error.code)}${moved}`;
    return `${answered(request, error.code)}. ${adviceFor(error.code)}`;
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpUnexpectedContent) {
    const { contentType } = (error.data ?? {}) as { contentType?: unknown };
    const type = typeof contentType === 'string' ? `"${contentType}"` : 'no content type';
    return `the server answered POST ${where} with ${type} instead of JSON or an event stream: it is not an MCP endpoint. Check "url".`;
  }
  return undefined;
}

/**
 * Free text (an error message that may quote a body) for a message: its first line, cut short; a
 * web page in it is named, never shown.
 */
export function oneLine(text: string): string {
  const page = text.search(HTML_START);
  const kept = page === -1 ? text : `${text.slice(0, page)}an HTML page (not shown)`;
  const [first = ''] = kept.trim().split(/\r?\n/, 1);
  return first.length > MAX_EXCERPT ? `${first.slice(0, MAX_EXCERPT)}…` : first;
}

// Read through require, and only when a reason is missing: `import ... from 'node:http'` makes Node
// evaluate every export of the module, undici's fetch among them (about 15 ms of every first
// connect, stdio included, for a table that a failed HTTP request may need).
let statusCodes: Readonly<Record<number, string | undefined>> | undefined;

/** The HTTP status line's reason, or the standard one when the server sent none (HTTP/2 has none). */
export function reasonOf(status: number, statusText?: string): string {
  if (statusText !== undefined && statusText !== '') return statusText;
  statusCodes ??= (createRequire(import.meta.url)('node:http') as typeof import('node:http'))
    .STATUS_CODES;
  return statusCodes[status] ?? '';
}

const MAX_EXCERPT = 200;

function answered(request: string, status: number, reason = reasonOf(status)): string {
  return `the server answered ${request} with HTTP ${status} ${reason}`.trimEnd();
}

/**
 * Where a redirect the SDK did not follow points, and what to do: `redirect` is the last answer's,
 * so it is this one's when the statuses agree. The Location is redacted: it can carry a token.
 */
function redirected(status: number, redirect: Redirect | undefined): string | undefined {
  if (redirect === undefined || redirect.status !== status) return undefined;
  const to = redactUrl(redirect.location);
  return ` to ${to}, which was not followed (a redirect is followed only within the server's origin, so its headers go nowhere else). If that is the server's MCP endpoint, put it in "url".`;
}

function methodOf(code: SdkErrorCode): string {
  switch (code) {
    case SdkErrorCode.ClientHttpFailedToOpenStream:
      return 'GET';
    case SdkErrorCode.ClientHttpFailedToTerminateSession:
      return 'DELETE';
    default:
      return 'POST';
  }
}

function bodyOf(text: unknown, scrub: Scrubber): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  if (looksLikeHtml(text)) return ': a web page, not an MCP endpoint';
  const rpc = rpcErrorMessage(text);
  return `: "${scrub(oneLine(rpc ?? text))}"`;
}

/** The message of a JSON-RPC error body (what MCP servers send with a 4xx), if it is one. */
function rpcErrorMessage(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    const message = parsed?.error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

const HTML_START = /<!doctype html|<html[\s>]/i;

function looksLikeHtml(text: string): boolean {
  return /^\s*<(head|body)[\s>]/i.test(text) || HTML_START.test(text);
}

function adviceFor(status: number): string {
  if (status === 404 || status === 405) {
    return 'Check "url": it must be the server\'s MCP endpoint (often ending in /mcp or /sse).';
  }
  if (status === 403) return 'The server refused access: check its "headers" or its login.';
  if (status >= 500) return 'The server failed on its side: check its logs, or try again later.';
  return 'Check "url" and "headers".';
}
