// A server's status as lines under its row: why it is not connected and what to do, and the last
// lines it wrote to stderr. Shared by the commands that connect (status, tools, reconnect).
import type { ConfiguredServer, McpErrorCode, McpServerStatus } from '@epoch-agent/runtime';
import { withAdvice } from '../render/advice.js';
import { launchLines } from '../render/launch.js';
import { shownError, shownStderr } from '../render/server-text.js';
import { indent } from './add-server.js';

/**
 * Nothing for a connected server; its error (with what to do about it, by where `server` is
 * written) and stderr tail, indented, otherwise.
 */
export function statusDetail(
  status: McpServerStatus,
  server: ConfiguredServer | undefined,
): string[] {
  switch (status.state) {
    case 'connected':
    case 'connecting':
    case 'disconnected':
      return [];
    case 'idle':
      return ['  closed while idle; the next call connects again'];
    case 'disabled':
      return [`  turned off; turn it on with "epoch mcp enable ${status.name}"`];
    case 'needsApproval':
      return [
        `  not started: ${status.reason === 'new' ? 'it has not been approved' : 'it changed since it was approved'}`,
        ...launchLines(status.launch).map((line) => `    ${line}`),
        `  Approve it with "epoch mcp approve ${status.name}" (or run this command with --yes).`,
      ];
    case 'needsLogin':
      return [indent(advised(status.error, server), '  ')];
    case 'reconnecting':
    case 'failed': {
      const stderr = shownStderr(status.stderrTail);
      return [
        indent(advised(status.error, server), '  '),
        ...(stderr === '' ? [] : ['  stderr (last lines):', indent(stderr, '    ')]),
      ];
    }
  }
}

function advised(
  error: { readonly code: McpErrorCode; readonly message: string },
  server: ConfiguredServer | undefined,
): string {
  return withAdvice(error.code, shownError(error.message), server);
}
