// A server's state said in a sentence: "MCP server "x" failed", not "is failed" or "is needsLogin".
import type { McpServerState } from '@epoch-agent/runtime';

const WORDS: Record<McpServerState, string> = {
  connected: 'is connected',
  connecting: 'is still connecting',
  idle: 'is idle',
  notStarted: 'is not started yet (it starts on demand, at its first call)',
  needsLogin: 'needs a login',
  reconnecting: 'lost its connection and is reconnecting',
  failed: 'failed to connect',
  disconnected: 'is not connected',
  disabled: 'is turned off',
  needsApproval: 'waits for your approval of what it runs',
};

/** What follows a server's name: `failed to connect`, `needs a login`. */
export function stateWords(state: McpServerState): string {
  return WORDS[state];
}
