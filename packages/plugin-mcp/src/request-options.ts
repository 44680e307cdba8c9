// The options of every request an McpClient sends (its timeout and the caller's signal), and the
// small text helpers its messages share. What a failed request means is request-errors.ts's.
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpServerConfig } from './types.js';

export function buildRequestOptions(timeoutMs: number, signal?: AbortSignal): RequestOptions {
  return signal === undefined ? { timeout: timeoutMs } : { timeout: timeoutMs, signal };
}

/** The URL of a remote server, for a request's error (request-errors.ts); undefined for a stdio server. */
export function remoteUrl(config: McpServerConfig): string | undefined {
  return config.transport === 'stdio' ? undefined : config.url;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * `text` ending as a sentence: a message that goes on after another one's text must not print
 * ".." when that text already ends in a full stop, nor run on when it does not.
 */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
