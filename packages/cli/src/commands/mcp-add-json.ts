// `epoch mcp add-json <name> '<json>'`: one server entry as JSON — any field, either spelling, as
// it would be written in the file — checked by the config loader before anything is written.
import { SERVER_NAME_PATTERN } from '@epoch-agent/runtime';
import { type Invocation, operands, UsageError } from '../command.js';
import type { CliIo, ExitCode } from '../io.js';
import { addAndCheck } from './add-server.js';

/** `epoch mcp add-json`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = '', text = ''] = operands(invocation, 'name', 'json');
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new UsageError(
      `the server name ${JSON.stringify(name)} can only use letters, digits, "_" and "-" (it becomes part of tool names like mcp__<server>__<tool>, which model providers restrict)`,
    );
  }
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, which may hold a token: not repeated.
    throw new UsageError(
      `<json> is not valid JSON; write it in double quotes and quote it for your shell: '{"command": "npx"}'`,
    );
  }
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    throw new UsageError(
      '<json> must be one object of fields, e.g. \'{"command": "npx", "args": ["-y", "some-server"]}\'',
    );
  }
  return addAndCheck(
    { name, entry: entry as Record<string, unknown> },
    invocation,
    io,
    'mcp add-json',
  );
}
