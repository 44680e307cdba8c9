// What `epoch mcp add` and `epoch mcp add-json` share once they know the entry: the runtime writes
// it into the user's mcp.json (a text edit: every other byte stays) and connects it, and the output
// says where it went, whether it works, and what is left to write by hand.
import { terminalJson } from '@epoch-agent/infra';
import {
  type AddServerInput,
  isMcpConfigWriteError,
  type McpServerStatus,
  type RuntimeServerAdded,
} from '@epoch-agent/runtime';
import type { Invocation } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { counted } from '../render/counted.js';
import { shownError, shownStderr } from '../render/server-text.js';
import { withRuntime } from '../session.js';
import { failWrite } from './write-failure.js';

export async function addAndCheck(
  server: AddServerInput,
  invocation: Invocation,
  io: CliIo,
  words: string,
): Promise<ExitCode> {
  let result: RuntimeServerAdded;
  try {
    // Only the new server starts: adding one must not wait for (or disturb) any other.
    result = await withRuntime(io, invocation, { connectOnly: [server.name] }, (runtime) =>
      runtime.addServer(server),
    );
  } catch (error) {
    if (!isMcpConfigWriteError(error)) throw error;
    return failWrite(io, invocation, error, words);
  }
  const { status } = result;
  if (invocation.json) {
    const { file, created, setByHand } = result;
    io.out(`${terminalJson({ file, created, setByHand, status }, 2)}\n`);
    return EXIT.ok;
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
  return EXIT.ok;
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
    case 'failed':
    case 'reconnecting': {
      const stderr = shownStderr(status.stderrTail);
      const tail = stderr === '' ? '' : `\n  stderr (last lines):\n${indent(stderr, '    ')}`;
      return `It does not connect yet: ${shownError(status.error.message)}${tail}\nThe entry is in the file: fix it there, or take it out with "epoch mcp remove ${name}".\n`;
    }
    case 'connecting':
    case 'idle':
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
