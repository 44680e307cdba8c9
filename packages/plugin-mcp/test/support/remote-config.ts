// A remote server's config as the loader would give it, with the timers a test does not want
// (keepalive, idle, lifetime) off and room for a slow machine.

import { EVERY_TOOL } from '../../src/config/tool-choice.js';
import type { RemoteServerConfig } from '../../src/types.js';

export function remoteConfig<T extends 'sse' | 'http'>(
  name: string,
  transport: T,
  url: string,
  overrides: Partial<RemoteServerConfig<T>> = {},
): RemoteServerConfig<T> {
  return {
    name,
    transport,
    url,
    headers: {},
    timeoutMs: 10_000,
    connectTimeoutMs: 10_000,
    keepaliveIntervalMs: 0,
    idleTimeoutMs: 0,
    maxLifetimeMs: 0,
    supportsParallel: true,
    skipPreflight: false,
    choice: EVERY_TOOL,
    defer: 'auto',
    ...overrides,
  };
}
