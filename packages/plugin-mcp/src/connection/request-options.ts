// The options of every request an McpClient sends (its timeout and the caller's signal). What a
// failed request means is errors/request.ts's.
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../types.js';

export function buildRequestOptions(timeoutMs: number, signal?: AbortSignal): RequestOptions {
  return signal === undefined ? { timeout: timeoutMs } : { timeout: timeoutMs, signal };
}

/** The URL of a remote server, for a request's error (errors/request.ts); undefined for a stdio server. */
export function remoteUrl(config: McpServerConfig): string | undefined {
  return config.transport === 'stdio' ? undefined : config.url;
}
