// Server configs as the loader would give them, for tests that build one in code rather than
// write an mcp.json: the timers a test does not want (keepalive, idle, lifetime) off, every tool
// on, and room for a slow machine. A test passes what it is about as overrides.
import type {
  McpServerCommon,
  McpServerConfig,
  RemoteServerConfig,
  StdioServerConfig,
} from '@epoch-agent/plugin-mcp';
import type { EverythingEndpoint } from './everything.js';

/** What every built config has unless overridden. */
export const TEST_SERVER_DEFAULTS: Omit<McpServerCommon, 'name' | 'supportsParallel'> = {
  timeoutMs: 10_000,
  maxTotalTimeoutMs: 60_000,
  connectTimeoutMs: 10_000,
  keepaliveIntervalMs: 0,
  idleTimeoutMs: 0,
  maxLifetimeMs: 0,
  skipPreflight: false,
  // Every tool on: the loader's EVERY_TOOL, written out so the testkit loads no plugin code.
  choice: { enabled: true, excludeTools: [] },
  defer: 'auto',
};

/** A stdio server: `command` with `args`, no env of its own, one request at a time. */
export function stdioConfig(
  name: string,
  command: string,
  args: readonly string[],
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return {
    ...TEST_SERVER_DEFAULTS,
    name,
    transport: 'stdio',
    command,
    args,
    env: {},
    supportsParallel: false,
    ...overrides,
  };
}

/** A Streamable HTTP (`http`) or SSE server at `url`, no headers, requests in parallel. */
export function remoteConfig<T extends 'sse' | 'http'>(
  name: string,
  transport: T,
  url: string,
  overrides: Partial<RemoteServerConfig<T>> = {},
): RemoteServerConfig<T> {
  return {
    ...TEST_SERVER_DEFAULTS,
    name,
    transport,
    url,
    headers: {},
    supportsParallel: true,
    ...overrides,
  };
}

/** The config of a running server in whichever transport it has (a startEverything endpoint). */
export function endpointConfig(
  name: string,
  endpoint: EverythingEndpoint,
  overrides: Partial<McpServerCommon> = {},
): McpServerConfig {
  return endpoint.transport === 'stdio'
    ? stdioConfig(name, endpoint.command, endpoint.args, overrides)
    : remoteConfig(name, endpoint.transport, endpoint.url, overrides);
}
