// `epoch mcp call <name> <tool>`: runs one tool the way the agent does — through the ToolRegistry's
// tool, with the turn's AbortSignal — and prints its result whole: a person who asked for it gets
// all of it, where the model would get it cut at the server's max_output_tokens (its secrets
// blanked, as in the saved copy of a cut result). Ctrl-C cancels the call: the server gets
// notifications/cancelled before epoch closes it. On a terminal, the server's progress reports
// draw a bar on stderr while the call runs, and a question the server asks is put to the person
// there (elicit.ts); elsewhere the server is told nobody can be asked. Fixed exit codes: 0 ok,
// 1 the tool reported an error, 2 usage (a server or tool the user turned off too, and a tool
// withheld since it changed: `epoch mcp diff`), 3 needs login, 4 server unreachable, 130 interrupted.
import { terminalJson } from '@epoch-agent/infra';
import type { EpochTool } from '@epoch-agent/protocol';
import { isMcpError, type McpEpochTool, type McpWithheldTool } from '@epoch-agent/runtime';
import { approvalMode } from '../approval.js';
import {
  fail,
  type Invocation,
  operands,
  stringOption,
  stringOptions,
  UsageError,
} from '../command.js';
import { didYouMean } from '../did-you-mean.js';
import { questionAsker } from '../elicit.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { startToolProgress } from '../progress.js';
import { withAdvice } from '../render/advice.js';
import { renderToolResult } from '../render/tool-result.js';
import { serverLogs } from '../server-logs.js';
import { withRuntime } from '../session.js';
import { exitOfError, exitOfState } from './exit-of.js';
import { rootsOf } from './root-dirs.js';
import { findServer } from './server-lookup.js';
import { notRunning } from './server-status.js';
import { settled } from './settle.js';
import { toolArgs } from './tool-args.js';
import { serverToolName, toolsOf } from './tools-of.js';

const WORDS = 'mcp call';

/** `epoch mcp call`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [server = '', wanted = ''] = operands(invocation, 'name', 'tool');
  const failure = (exit: Parameters<typeof fail>[2], code: string, message: string) =>
    fail(io, invocation, exit, { code, message, server, tool: wanted }, WORDS);
  const roots = rootsOf(invocation);
  // A server's question is answered by a person at this terminal, or by nobody: never in a pipe or
  // with --json (a script reads the output), and --yes answers none.
  const asker = io.ask !== undefined && !invocation.json ? questionAsker(io, io.ask) : undefined;
  // Only this server starts: a call must not wait for any other.
  const options = {
    connectOnly: [server],
    approval: approvalMode(invocation, io),
    ...(roots === undefined ? {} : { registry: { roots } }),
    ...(asker === undefined ? {} : { asker }),
    ...serverLogs(invocation, io),
  };
  return withRuntime(io, invocation, options, async (runtime) => {
    const configured = findServer(
      runtime.servers(),
      runtime.diagnostics(),
      server,
      runtime.configFile,
    );
    // Still connecting, it offers its cached tools: which of them changed (and are withheld) is
    // known only from its live list, so the tool is looked up once it has one.
    const [status] = await settled(runtime, [server]);
    io.signal.throwIfAborted();
    const down = exitOfState(status?.state ?? 'disconnected');
    if (status === undefined || down !== EXIT.ok) {
      return failure(
        down === EXIT.ok ? EXIT.unreachable : down,
        status?.state ?? 'disconnected',
        notRunning(server, status, configured),
      );
    }
    const tools = toolsOf(runtime, server);
    const found = tools.find(
      ({ name, tool }) => name === wanted || serverToolName(tool) === wanted,
    );
    if (found === undefined) {
      const off = runtime.mcp
        .toolsOffOf(server)
        .find((tool) => tool.name === wanted || serverToolName(tool) === wanted);
      if (off !== undefined) {
        const name = serverToolName(off);
        return failure(
          EXIT.usage,
          'tool_off',
          `tool "${name}" of MCP server "${server}" is turned off (include_tools / exclude_tools), so the model is not offered it. Turn it on with: epoch mcp enable ${server} --tool ${name}`,
        );
      }
      const withheld = runtime.mcp
        .withheldOf(server)
        .find(({ name }) => name === wanted || `mcp__${server}__${name}` === wanted);
      if (withheld !== undefined) {
        return failure(
          exitOfError('tool_withheld'),
          'tool_withheld',
          withAdvice('tool_withheld', withheldMessage(server, withheld), configured),
        );
      }
      const names = tools.map(({ tool }) => serverToolName(tool));
      throw new UsageError(
        `MCP server "${server}" has no tool "${wanted}" (its tools: ${names.join(', ') || 'none'}).${didYouMean(wanted, names)}`,
      );
    }
    const args = toolArgs(
      found.tool,
      stringOption(invocation, 'args'),
      stringOptions(invocation, 'arg'),
      io.err,
    );
    // Its result and progress are shown with the server's secrets blanked, as a saved result is.
    const owner = found.tool.server ?? server;
    let result: Awaited<ReturnType<EpochTool['execute']>>;
    const progress = startToolProgress(io, !invocation.json);
    const unpause = asker?.pause(progress.hold);
    try {
      result = await (found.tool as McpEpochTool).executeUncut(args, {
        signal: io.signal,
        onProgress: (report) => progress.onProgress(runtime.mcp.shownProgress(owner, report)),
      });
    } catch (error) {
      if (!isMcpError(error)) throw error;
      return failure(
        exitOfError(error.code),
        error.code,
        withAdvice(error.code, error.message, configured),
      );
    } finally {
      unpause?.();
      progress.stop();
    }
    const shown = runtime.mcp.shownResult(owner, result);
    io.out(invocation.json ? `${terminalJson(shown, 2)}\n` : renderToolResult(shown));
    if (result.isError !== true) return EXIT.ok;
    return failure(
      EXIT.failed,
      'tool_error',
      `tool "${serverToolName(found.tool)}" of MCP server "${server}" reported an error${invocation.json ? '' : ' (its output is above)'}.`,
    );
  });
}

/**
 * A withheld tool is not called, even by a person: what they would call is not what was approved.
 * The advice (render/advice.ts) adds where to see the change and how to approve it.
 */
function withheldMessage(server: string, { name, reason }: McpWithheldTool): string {
  const why =
    reason === 'new' ? 'is new since its tools were approved' : 'changed since it was approved';
  return `tool "${name}" of MCP server "${server}" ${why}, so it is withheld: not offered to the model, and not called.`;
}
