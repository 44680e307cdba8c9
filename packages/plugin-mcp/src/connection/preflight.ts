// The checks of a connect attempt (unless `skip_preflight`), so that a server that cannot possibly
// start fails in milliseconds with a message that says why, instead of after connect_timeout with
// a generic one. sse / http, before connecting: the URL is http(s) and its host:port accepts a TCP
// connection. stdio, when the connect failed: `cwd` is a directory and the command resolves to an
// executable (resolve-command.ts, the spawn's own lookup). A stdio server that starts needs none
// of them, and the lookup (a file check per PATH entry) made every connect wait for it.
//
// Node-only (file system, sockets): like the stdio transport.

import { stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { redactUrl } from '@epoch-agent/infra';
import { McpError } from '../errors/mcp-error.js';
import { seconds } from '../text.js';
import { childEnvironment, commandNotFound, resolveCommand } from '../transport/resolve-command.js';
import {
  assertNever,
  type McpServerConfig,
  type RemoteServerConfig,
  type StdioServerConfig,
} from '../types.js';

/**
 * A TCP handshake to a live host takes milliseconds; one that has not happened after this long is
 * a firewall dropping packets or a host that is down, and connect_timeout would only wait longer.
 */
const PREFLIGHT_TCP_TIMEOUT_MS = 2_000;

/**
 * Why a stdio server failed to connect, when the checks can say (a missing command, a file that
 * cannot run, a bad cwd: what the spawn reports less clearly, or as an exit): their
 * `command_not_found` or `preflight_failed`, which name the file or directory at fault. Otherwise
 * (a remote server, checks that pass, `skipPreflight`, an aborted attempt) `error` itself.
 */
export async function explainStdioFailure(
  config: McpServerConfig,
  error: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  if (config.transport !== 'stdio' || signal.aborted) return error;
  try {
    await preflight(config, signal);
    return error;
  } catch (verdict) {
    return verdict;
  }
}

/**
 * Resolves when every check passes (or `skipPreflight` is set); rejects with `command_not_found` or
 * `preflight_failed`, or with the signal's reason when the connect attempt is aborted meanwhile.
 */
export async function preflight(config: McpServerConfig, signal: AbortSignal): Promise<void> {
  if (config.skipPreflight) return;
  switch (config.transport) {
    case 'stdio':
      return checkStdio(config);
    case 'sse':
    case 'http':
      return checkRemote(config, signal);
    default:
      return assertNever(config, 'transport');
  }
}

async function checkStdio(config: StdioServerConfig): Promise<void> {
  const { name, command, cwd } = config;
  const fail = (message: string): McpError =>
    new McpError('preflight_failed', `MCP server "${name}": ${message}`, { server: name });
  if (cwd !== undefined) {
    const kind = await stat(cwd).then(
      (stats) => (stats.isDirectory() ? 'directory' : 'other'),
      () => 'absent',
    );
    if (kind === 'absent') {
      throw fail(`"cwd" directory "${cwd}" does not exist. Create it or fix the server's "cwd".`);
    }
    if (kind === 'other') {
      throw fail(`"cwd" "${cwd}" is not a directory. Point "cwd" at the directory to start in.`);
    }
  }
  const lookup = await resolveCommand({ command, cwd, env: childEnvironment(config.env) });
  switch (lookup.kind) {
    case 'found':
      return;
    case 'notFound':
      throw commandNotFound(name, command);
    case 'notExecutable':
      throw fail(
        `command "${command}" resolves to "${lookup.path}", which cannot be run (not an executable file). ` +
          'Make it executable (chmod +x) or point "command" at the program to run.',
      );
    default:
      return assertNever(lookup, 'command lookup');
  }
}

async function checkRemote(
  config: RemoteServerConfig<'sse' | 'http'>,
  signal: AbortSignal,
): Promise<void> {
  const { name } = config;
  const fail = (message: string, cause?: unknown): McpError =>
    new McpError('preflight_failed', `MCP server "${name}": ${message}`, {
      server: name,
      ...(cause === undefined ? {} : { cause }),
    });
  let url: URL;
  try {
    url = new URL(config.url);
  } catch (error) {
    // Not printed: a URL that does not parse cannot be redacted, and it may hold a key.
    throw fail('"url" is not a valid URL. Write it in full, e.g. "https://host/mcp".', error);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail(
      `"url" ${redactUrl(config.url)} is not http:// or https:// (it is ${url.protocol}). Remote MCP servers are reached over HTTP.`,
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const timeoutMs = Math.min(config.connectTimeoutMs, PREFLIGHT_TCP_TIMEOUT_MS);
  const where = `${url.hostname}:${port}`;
  const outcome = await tcpProbe(host, port, timeoutMs, signal);
  if (outcome === 'open') return;
  if (outcome === 'timeout') {
    throw fail(
      `${where} did not accept a TCP connection within ${seconds(timeoutMs)}. Check the host in "url", your network and firewall; if the network is just that slow, set "skip_preflight": true for this server.`,
    );
  }
  throw fail(
    `nothing accepts connections at ${where} (${outcome.code ?? outcome.message}). Check that the server is running and that "url" names the right host and port.`,
    outcome,
  );
}

/** Opens and at once closes a TCP connection: `open`, `timeout`, or the socket's error. */
function tcpProbe(
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<'open' | 'timeout' | NodeJS.ErrnoException> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const settle = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
    };
    const onAbort = (): void => {
      settle();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      settle();
      resolve('timeout');
    }, timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      settle();
      resolve('open');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      settle();
      resolve(error);
    });
  });
}
