// `epoch mcp add-json <name> '<json>'`: one server entry as JSON — any field, either spelling, as
// it would be written in the file, or wrapped as configs share one server — checked by the config
// loader before anything is written.
import { parseEntryJson, SERVER_NAME_PATTERN } from '@epoch-agent/runtime';
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
  // Read as the page's "paste JSON" reads it: the entry, or one server wrapped as configs share it
  // (<name> wins over the wrapper's: that is how a copied entry is added under another name).
  const parsed = parseEntryJson(text);
  if (!parsed.ok) {
    throw new UsageError(
      `<json> is not one server's entry: ${parsed.problem} Quote it for your shell: '{"command": "npx"}'`,
    );
  }
  return addAndCheck({ name, entry: parsed.entry }, invocation, io, 'mcp add-json');
}
