// Servers that need approval before they start (the README's "Trust" section), as the commands that
// start servers meet them: on a terminal, a question per server showing what it would run ([y/N],
// no by default); with --yes, approved without one (for scripts, never the default); in a pipe or
// with --json, never a question: the server stays held and the output says the command to run.
import type { ConfiguredServer, McpServerStatus, Runtime } from '@epoch-agent/runtime';
import { saidYes } from './ask.js';
import type { Invocation } from './command.js';
import type { CliIo } from './io.js';
import { launchLines } from './render/launch.js';

/** What a command does with a server that needs approval. */
export type ApprovalMode = 'ask' | 'yes' | 'never';

/** --yes approves; a person on a terminal is asked; anything else (a pipe, --json) never is. */
export function approvalMode(invocation: Invocation, io: CliIo): ApprovalMode {
  if (invocation.values.yes === true) return 'yes';
  return io.ask !== undefined && !invocation.json ? 'ask' : 'never';
}

type Held = McpServerStatus & { readonly state: 'needsApproval' };

/**
 * Asks about (or, with --yes, approves) each server of `runtime` this command starts that is held
 * for approval, one at a time; each one approved is started before the next question. `hold`
 * keeps the progress lines off the terminal while a question is on it.
 */
export async function approveHeld(
  runtime: Runtime,
  io: CliIo,
  mode: ApprovalMode,
  hold: <T>(task: () => Promise<T>) => Promise<T>,
): Promise<void> {
  if (mode === 'never') return;
  const held = runtime.mcp
    .statuses()
    .filter((status): status is Held => status.state === 'needsApproval')
    .filter(({ name }) => runtime.connects(name));
  for (const status of held) {
    if (io.signal.aborted) return;
    const yes =
      mode === 'yes' ||
      (await hold(async () => {
        const answer = await io.ask?.(question(status, runtime.server(status.name)));
        return saidYes(answer);
      }));
    if (yes) await runtime.approveServer(status.name);
    else if (!io.signal.aborted) {
      io.err(`Not started. Approve it later with "epoch mcp approve ${status.name}".\n`);
    }
  }
}

/** The server and why it is held: `MCP server "x" (plugin, <file>) has not been approved`. */
function heldWhy(status: Held, server: ConfiguredServer | undefined): string {
  const file =
    server === undefined || server.origin.source === 'host' ? '' : `, ${server.origin.file}`;
  const why =
    status.reason === 'new'
      ? 'has not been approved'
      : 'changed since it was approved, so it is asked about again';
  return `MCP server "${status.name}" (${status.source}${file}) ${why}`;
}

function question(status: Held, server: ConfiguredServer | undefined): string {
  const launch = launchLines(status.launch).map((line) => `  ${line}\n`);
  return `\n${heldWhy(status, server)}:\n${launch.join('')}Start it? [y/N] `;
}
