// A server's status as lines under its row: why it is not connected and what to do, the last
// lines it wrote to stderr, and how many of its tools are withheld (changed or new since they were
// approved). Shared by the commands that connect (status, tools, reconnect, approve).
import type { ConfiguredServer, McpErrorCode, McpServerStatus } from '@epoch-agent/runtime';
import { withAdvice } from '../render/advice.js';
import { counted } from '../render/counted.js';
import { launchLines } from '../render/launch.js';
import { shownError, shownStderr } from '../render/server-text.js';
import { stateWords } from '../render/state-words.js';
import { indent } from './add-server.js';

/**
 * Nothing for a connected server whose tools are all the approved ones; its error (with what to do
 * about it, by where `server` is written) and stderr tail, indented, otherwise; and a line for its
 * withheld tools, whatever its state (an idle server's are still withheld).
 */
export function statusDetail(
  status: McpServerStatus,
  server: ConfiguredServer | undefined,
): string[] {
  return [...stateDetail(status, server), ...withheldDetail(status)];
}

/**
 * Why a command about one server that is not running cannot go on, as one message: `MCP server
 * "x" failed to connect.`, then its detail out of the status table's indent (stderr's own kept).
 */
export function notRunning(
  name: string,
  status: McpServerStatus | undefined,
  server: ConfiguredServer | undefined,
): string {
  const state = status?.state ?? 'disconnected';
  const why = status === undefined ? [] : statusDetail(status, server);
  const lines = [`MCP server "${name}" ${stateWords(state)}.`, ...why.map(unindented)];
  return lines.join('\n');
}

function unindented(line: string): string {
  return line.replace(/^ {2}/gm, '');
}

/** `  2 tools withheld: …`, naming the command that shows them; nothing when none is. */
function withheldDetail({ name, toolsWithheld }: McpServerStatus): string[] {
  if (toolsWithheld === 0) return [];
  return [
    `  ${counted(toolsWithheld, 'tool')} withheld: changed or new since its tools were approved, so not offered to the model. See what changed with "epoch mcp diff ${name}".`,
  ];
}

function stateDetail(status: McpServerStatus, server: ConfiguredServer | undefined): string[] {
  switch (status.state) {
    case 'connected':
    case 'connecting':
    case 'disconnected':
      return [];
    case 'idle':
      return ['  closed while idle; the next call connects again'];
    case 'notStarted':
      return [
        '  not started: it starts on demand ("start": "on_demand"), at its first call; its tools are the ones it listed last time',
      ];
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
