// Server configs as the loader would give them, for tests that build one in code: the timers a
// test does not want (keepalive, idle, lifetime) off, every tool on, and room for a slow machine.

import { EVERY_TOOL } from '../../src/config/tool-choice.js';
import type { McpServerCommon, RemoteServerConfig, StdioServerConfig } from '../../src/types.js';

const TEST_DEFAULTS: Omit<McpServerCommon, 'name' | 'supportsParallel'> = {
  timeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  keepaliveIntervalMs: 0,
  idleTimeoutMs: 0,
  maxLifetimeMs: 0,
  skipPreflight: false,
  choice: EVERY_TOOL,
  defer: 'auto',
};

export function stdioConfig(
  name: string,
  command: string,
  args: readonly string[],
  overrides: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return {
    ...TEST_DEFAULTS,
    name,
    transport: 'stdio',
    command,
    args,
    env: {},
    supportsParallel: false,
    ...overrides,
  };
}

export function remoteConfig<T extends 'sse' | 'http'>(
  name: string,
  transport: T,
  url: string,
  overrides: Partial<RemoteServerConfig<T>> = {},
): RemoteServerConfig<T> {
  return {
    ...TEST_DEFAULTS,
    name,
    transport,
    url,
    headers: {},
    supportsParallel: true,
    ...overrides,
  };
}
