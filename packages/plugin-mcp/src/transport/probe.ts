// An entry with only a `url` is SSE (README, "mcp.json"), but many servers today speak Streamable
// HTTP only, and refuse the SSE event stream's GET with 400, 404 or 405. Such a refusal is worth
// one more try: the same url as Streamable HTTP. If that connects, the failure says what to change
// and where: `"type": "http"` on the entry's line. The same for an entry that says SSE itself
// (`epoch mcp add --transport sse` writes one): what was chosen is not changed, only said to be
// wrong. The probe's connection is closed at once, its HTTP session ended like any other (DELETE).
import { redactUrl } from '@epoch-agent/infra';
import { SseError } from '@modelcontextprotocol/client';
import { reasonOf } from '../errors/http.js';
import { McpError } from '../errors/mcp-error.js';
import type { HttpServerConfig, McpServerConfig, SseChoice } from '../types.js';

// How a Streamable HTTP endpoint answers a GET without a session: 400 (no session id), 404 (no
// such session) or 405 (no GET stream at all).
const STREAMABLE_REFUSALS = new Set([400, 404, 405]);

/**
 * When `error` is an SSE server's event stream refused the way a Streamable HTTP
 * endpoint refuses it, and the same url connects as Streamable HTTP (`open` says whether it did,
 * and closes what it opened; it must stay within what is left of the connect deadline): the
 * error that says to add `"type": "http"`.
 * Undefined otherwise, and the original failure stands.
 */
export async function streamableInstead(
  config: McpServerConfig,
  error: unknown,
  open: (config: HttpServerConfig) => Promise<boolean>,
): Promise<McpError | undefined> {
  if (config.transport !== 'sse' || config.sseChosen === undefined) return undefined;
  if (!(error instanceof SseError) || !STREAMABLE_REFUSALS.has(error.code ?? 0)) return undefined;
  const { sseChosen, ...sse } = config;
  if (!(await open({ ...sse, transport: 'http' }))) return undefined;
  return wrongTransport(config.name, config.url, error, sseChosen);
}

const FIX: Record<SseChoice['by'], (server: string, where: string) => string> = {
  url: (server, where) =>
    `An entry with only a "url" is taken as SSE: add "type": "http" to server "${server}" at ${where}.`,
  written: (server, where) =>
    `The entry of server "${server}" at ${where} says SSE: make its transport "http".`,
};

function wrongTransport(
  server: string,
  url: string,
  refusal: SseError,
  { at, by }: SseChoice,
): McpError {
  const status = refusal.code ?? 0;
  return new McpError(
    'connect_failed',
    `MCP server "${server}" failed to connect: ${redactUrl(url)} is a Streamable HTTP endpoint, not SSE. It refused the SSE event stream (GET answered HTTP ${status} ${reasonOf(status)}) but answered a Streamable HTTP initialize. ${FIX[by](server, `${at.file}:${at.line}`)}`,
    { server, cause: refusal },
  );
}
