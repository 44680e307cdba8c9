// A server's status as lines under its row: why it is not connected and what to do, and the last
// lines it wrote to stderr. Shared by the commands that connect (status, tools, reconnect).
import type { McpServerStatus } from '@epoch-agent/runtime';
import { shownError, shownStderr } from '../render/server-text.js';
import { indent } from './add-server.js';

/** Nothing for a connected server; its error and stderr tail, indented, otherwise. */
export function statusDetail(status: McpServerStatus): string[] {
  switch (status.state) {
    case 'connected':
    case 'connecting':
    case 'disconnected':
      return [];
    case 'idle':
      return ['  closed while idle; the next call connects again'];
    case 'disabled':
      return [`  turned off; turn it on with "epoch mcp enable ${status.name}"`];
    case 'needsLogin':
      return [`  ${shownError(status.error.message)}`];
    case 'reconnecting':
    case 'failed': {
      const stderr = shownStderr(status.stderrTail);
      return [
        `  ${shownError(status.error.message)}`,
        ...(stderr === '' ? [] : ['  stderr (last lines):', indent(stderr, '    ')]),
      ];
    }
  }
}
