// `epoch mcp approve <name>` of a server that runs (its launch approved, or trusted) and lists tools
// that changed or are new since its tools were approved: it names them and why (the diff is
// `epoch mcp diff`), asks [y/N] under the rules of the launch question (on a terminal only; --yes
// for scripts), approves them (`--tool`: single ones) and says what the model is offered now.
import { terminalJson } from '@epoch-agent/infra';
import {
  type ConfiguredServer,
  isMcpError,
  type McpServerStatus,
  type McpWithheldTool,
  type Runtime,
} from '@epoch-agent/runtime';
import { saidYes } from '../ask.js';
import { fail, type Invocation, stringOptions } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withAdvice } from '../render/advice.js';
import { counted } from '../render/counted.js';
import { noneWithheld, withheldHead } from '../render/definition-diff.js';
import { exitOfError, exitOfState } from './exit-of.js';
import { notRunning, statusDetail } from './server-status.js';
import { settled } from './settle.js';

const WORDS = 'mcp approve';

export async function approveTools(
  runtime: Runtime,
  server: ConfiguredServer,
  invocation: Invocation,
  io: CliIo,
): Promise<ExitCode> {
  const { name } = server.config;
  const failure = (
    exit: Exclude<ExitCode, typeof EXIT.ok>,
    code: string,
    message: string,
    more: Record<string, unknown> = {},
  ) => fail(io, invocation, exit, { code, message, server: name, ...more }, WORDS);
  const [status] = await settled(runtime, [name]);
  const down = exitOfState(status?.state ?? 'disconnected');
  if (status === undefined || down !== EXIT.ok) {
    const exit = down === EXIT.ok ? EXIT.unreachable : down;
    return failure(exit, status?.state ?? 'disconnected', notRunning(name, status, server));
  }
  const withheld = runtime.mcp.withheldOf(name);
  const named = stringOptions(invocation, 'tool');
  const stray = named.filter((tool) => !withheld.some((each) => each.name === tool));
  if (stray.length > 0) {
    const message = withAdvice('tool_not_withheld', notWithheld(name, stray, withheld), server);
    const names = withheld.map((tool) => tool.name);
    return failure(exitOfError('tool_not_withheld'), 'tool_not_withheld', message, {
      withheld: names,
    });
  }
  const chosen = named.length === 0 ? withheld : withheld.filter((t) => named.includes(t.name));
  const shown = chosen.map(({ name: tool, reason }) => ({ name: tool, reason }));
  if (chosen.length === 0) {
    if (invocation.json) {
      io.out(`${terminalJson({ server: name, tools: [], approved: false, status }, 2)}\n`);
    } else {
      io.out(`Nothing to approve: ${noneWithheld(server)}.\n`);
    }
    return EXIT.ok;
  }
  if (!invocation.json) io.out(listed(name, chosen));
  if (invocation.values.yes !== true) {
    if (io.ask === undefined || invocation.json) {
      const message = `nothing was approved: epoch asks before it approves, and asks only on a terminal. Run "epoch mcp approve ${name}" there, or add --yes to approve the tools ${invocation.json ? 'in this error' : 'shown above'} without a question.`;
      return failure(EXIT.failed, 'not_approved', message, { tools: shown });
    }
    const them = chosen.length === 1 ? 'it' : 'them';
    if (!saidYes(await io.ask(`Approve ${them} and offer ${them} to the model? [y/N] `))) {
      if (!io.signal.aborted) io.err('Not approved; the tools stay withheld.\n');
      return EXIT.failed;
    }
  }
  let after: McpServerStatus;
  try {
    // The tools shown, in the definitions shown: one the server changed again while the question
    // waited is `tools_changed`, and nothing is approved; one withheld since stays withheld.
    after = await runtime.approveTools(name, chosen);
  } catch (error) {
    if (!isMcpError(error)) throw error;
    const message = withAdvice(error.code, error.message, server);
    return failure(exitOfError(error.code), error.code, message);
  }
  if (invocation.json) {
    io.out(`${terminalJson({ server: name, tools: shown, approved: true, status: after }, 2)}\n`);
  } else {
    const offered =
      after.state === 'connected' ? `: it offers ${counted(after.toolCount, 'tool')} now` : '';
    io.out(`Approved ${counted(chosen.length, 'tool')} of ${name}${offered}.\n`);
    const detail = statusDetail(after, server);
    if (detail.length > 0) io.out(`${detail.join('\n')}\n`);
  }
  return EXIT.ok;
}

/** The tools about to be approved, each with why it is withheld, and where to see what changed. */
function listed(server: string, tools: readonly McpWithheldTool[]): string {
  const lines = tools.map((tool) => `  ${withheldHead(tool)}\n`).join('');
  const are = tools.length === 1 ? 'is' : 'are';
  return `MCP server "${server}": ${counted(tools.length, 'tool')} ${are} withheld from the model, changed or new since its tools were approved:\n${lines}See each one's definition before and after with "epoch mcp diff ${server}".\n`;
}

function notWithheld(
  server: string,
  stray: readonly string[],
  withheld: readonly McpWithheldTool[],
): string {
  const tools = stray.map((tool) => `"${tool}"`).join(', ');
  const names = withheld.map((tool) => tool.name);
  const those =
    names.length === 0 ? 'none of its tools is withheld' : `withheld now: ${names.join(', ')}`;
  return `MCP server "${server}" has no withheld tool ${tools}: --tool approves only tools withheld since they changed (${those}).`;
}
