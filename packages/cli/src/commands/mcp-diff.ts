// `epoch mcp diff <name>`: what a person reads before approving a server's tools again. Only that
// server starts, with no schema cache, so what is compared with the approved definitions is its
// live list; each tool withheld (changed or new since approved) is shown with its definition before
// and after, line by line, then the command that approves them.
import { terminalJson } from '@epoch-agent/infra';
import { definitionDiff, type Runtime } from '@epoch-agent/runtime';
import { fail, type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode, outTakesColour } from '../io.js';
import { diffText, noneWithheld, withheldHead } from '../render/definition-diff.js';
import { shownLine } from '../render/server-text.js';
import { shellQuote } from '../render/target.js';
import { withRuntime } from '../session.js';
import { exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { notRunning } from './server-status.js';
import { settled } from './settle.js';

/** `epoch mcp diff`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  const options = { connectOnly: [name], registry: { offerCachedTools: false } };
  return withRuntime(io, invocation, options, async (runtime) => {
    const server = findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    const [status] = await settled(runtime, [name]);
    const down = exitOfState(status?.state ?? 'disconnected');
    if (status === undefined || down !== EXIT.ok) {
      const failure = {
        code: status?.state ?? 'disconnected',
        message: notRunning(name, status, server),
        server: name,
      };
      return fail(io, invocation, down === EXIT.ok ? EXIT.unreachable : down, failure, 'mcp diff');
    }
    const withheld = withheldDiffs(runtime, name);
    if (invocation.json) {
      io.out(`${terminalJson({ server: name, withheld }, 2)}\n`);
      return EXIT.ok;
    }
    if (withheld.length === 0) {
      io.out(`Nothing is withheld: ${noneWithheld(server)}.\n`);
      return EXIT.ok;
    }
    const colour = outTakesColour(io);
    for (const tool of withheld) {
      io.out(`${withheldHead(tool)}\n${diffText(tool.lines, colour).join('\n')}\n\n`);
    }
    io.out(approveHint(name, withheld));
    return EXIT.ok;
  });
}

/** The server's withheld tools, each with its definition diff (`lines`): what --json prints. */
function withheldDiffs(runtime: Runtime, name: string) {
  return runtime.mcp.withheldOf(name).map(({ name: tool, reason, before, after }) => ({
    name: tool,
    reason,
    before,
    after,
    lines: definitionDiff(before, after),
  }));
}

/** The command that approves them all, and with several, the one for a single tool (the first). */
function approveHint(server: string, withheld: readonly { readonly name: string }[]): string {
  const [first, second] = withheld;
  if (first === undefined || second === undefined) {
    return `Approve it with "epoch mcp approve ${server}".\n`;
  }
  const one = `epoch mcp approve ${server} --tool ${shownLine(shellQuote(first.name))}`;
  return `Approve them all with "epoch mcp approve ${server}", or one at a time: "${one}".\n`;
}
