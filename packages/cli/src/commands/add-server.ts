// What `epoch mcp add` and `epoch mcp add-json` share once they know the entry: the runtime writes
// it into the user's mcp.json, or with `--scope project` the project's `.epoch/mcp.json` (a text
// edit: every other byte stays) and connects it, and the output
// says where it went, whether it works, and what is left to write by hand. The check is a live
// connection, never a tool list from the schema cache, and its exit code says how it went (the
// entry stays written either way): a script can tell an added server that works from one that
// does not.
import { terminalJson } from '@epoch-agent/infra';
import {
  type AddServerInput,
  isMcpConfigWriteError,
  type McpServerStatus,
  type RuntimeServerAdded,
} from '@epoch-agent/runtime';
import type { Invocation } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { startProgress } from '../progress.js';
import { counted } from '../render/counted.js';
import { shownError, shownStderr } from '../render/server-text.js';
import { withRuntime } from '../session.js';
import { exitOfError } from './exit-of.js';
import { scopeOf } from './scope.js';
import { failWrite } from './write-failure.js';

export async function addAndCheck(
  server: AddServerInput,
  invocation: Invocation,
  io: CliIo,
  words: string,
): Promise<ExitCode> {
  const scope = scopeOf(invocation);
  let result: RuntimeServerAdded;
  try {
    // Only the new server starts: adding one must not wait for (or disturb) any other. No schema
    // cache: a tool list cached for the same command would stand in for the connection.
    const options = { connectOnly: [server.name], registry: { offerCachedTools: false } };
    result = await withRuntime(io, invocation, options, async (runtime) => {
      // The new server connects inside addServer, after the runtime's start: its progress too.
      const progress = startProgress(io, !invocation.json);
      const stop = runtime.mcp.onStatus(progress.onStatus);
      try {
        return await runtime.addServer(server, { scope });
      } finally {
        stop();
        progress.stop();
      }
    });
  } catch (error) {
    if (!isMcpConfigWriteError(error)) throw error;
    return failWrite(io, invocation, error, words);
  }
  const { status } = result;
  if (invocation.json) {
    const { file, created, setByHand } = result;
    io.out(`${terminalJson({ file, scope, created, setByHand, status }, 2)}\n`);
    return exitOf(status);
  }
  const transport = status?.transport ?? ('transport' in server ? server.transport : 'stdio');
  io.out(
    `Added ${server.name} (${transport}) to ${result.file}${result.created ? ' (a new file)' : ''}.\n`,
  );
  if (status !== undefined) io.out(check(status));
  if (result.setByHand.length > 0) {
    io.out(
      `Other settings are written by hand in that file when this server needs them: ${result.setByHand.join(', ')}.\n`,
    );
  }
  return exitOf(status);
}

/**
 * 0 when it connected, or is turned off as its entry asks; otherwise what its failure means (3
 * needs a login, 4 unreachable, 1 it answered wrongly), as for `reconnect`.
 */
function exitOf(status: McpServerStatus | undefined): ExitCode {
  switch (status?.state) {
    case 'connected':
    case 'disabled':
      return EXIT.ok;
    case 'needsLogin':
      return EXIT.needsLogin;
    case 'needsApproval':
      return EXIT.usage;
    case 'failed':
    case 'reconnecting':
      return exitOfError(status.error.code);
    case 'connecting':
    case 'idle':
    case 'notStarted':
    case 'disconnected':
    case undefined:
      return EXIT.failed;
  }
}

function check(status: McpServerStatus): string {
  const { name } = status;
  switch (status.state) {
    case 'connected':
      return `It connects: ${counted(status.toolCount, 'tool')}. See them with "epoch mcp tools ${name}".\n`;
    case 'needsLogin':
      return `It needs a login first: run "epoch mcp login ${name}".\n`;
    case 'disabled':
      return `It is turned off ("enabled": false), so it was not started: turn it on with "epoch mcp enable ${name}".\n`;
    case 'needsApproval':
      return `It was not started: it waits for your approval of what it runs. See it and approve it with "epoch mcp approve ${name}".\n`;
    case 'failed':
    case 'reconnecting': {
      const stderr = shownStderr(status.stderrTail);
      const tail = stderr === '' ? '' : `\n  stderr (last lines):\n${indent(stderr, '    ')}`;
      return `It does not connect yet: ${shownError(status.error.message)}${tail}\nThe entry is in the file: fix it there, or take it out with "epoch mcp remove ${name}".\n`;
    }
    case 'connecting':
    case 'idle':
    case 'notStarted':
    case 'disconnected':
      return `Its state: ${status.state}.\n`;
  }
}

export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}
