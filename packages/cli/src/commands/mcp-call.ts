// `epoch mcp call <name> <tool>`: runs one tool the way the agent does — through the ToolRegistry's
// tool, with the turn's AbortSignal — and prints its result. Ctrl-C cancels the call: the server
// gets notifications/cancelled before epoch closes it. Fixed exit codes: 0 ok, 1 the tool reported
// an error, 2 usage, 3 needs login, 4 server unreachable, 130 interrupted.
import type { EpochTool } from '@epoch-agent/protocol';
import { isMcpError, type McpEpochTool, type ResolvedTool } from '@epoch-agent/runtime';
import {
  type Command,
  fail,
  operands,
  stringOption,
  stringOptions,
  UsageError,
} from '../command.js';
import { EXIT } from '../io.js';
import { renderToolResult } from '../render/tool-result.js';
import { withRuntime } from '../session.js';
import { exitOfError, exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';
import { toolArgs } from './tool-args.js';
import { toolsOf } from './tools-of.js';

const WORDS = 'mcp call';

export const mcpCall: Command = {
  words: WORDS,
  synopsis: "<name> <tool> [--arg key=value]... [--args '<json>'] [--json]",
  summary: 'run one tool of a server and print its result',
  details: `<tool> is the tool's name on the server (echo) or the name the model sees (mcp__everything__echo).
--arg values are read as the tool's input schema types them; --args gives them all as one JSON object.
Exit codes: 0 ok, 1 the tool reported an error, 2 wrong command line, 3 the server needs
"epoch mcp login", 4 the server cannot be reached, 130 interrupted (the call is cancelled on the server).`,
  options: {
    arg: {
      type: 'string',
      multiple: true,
      value: 'key=value',
      help: 'one argument; repeat for more',
    },
    args: { type: 'string', value: 'JSON', help: 'every argument as one JSON object' },
    json: {
      type: 'boolean',
      help: 'print the result as JSON; errors are one JSON object on stderr',
    },
  },
  readsConfig: true,
  run(invocation, io) {
    const [server = '', wanted = ''] = operands(invocation, 'name', 'tool');
    const failure = (exit: Parameters<typeof fail>[2], code: string, message: string) =>
      fail(io, invocation, exit, { code, message, server, tool: wanted }, WORDS);
    // Only this server starts: a call must not wait for any other.
    return withRuntime(io, invocation, { connectOnly: [server] }, async (runtime) => {
      findServer(runtime.servers(), runtime.diagnostics(), server, runtime.configFile);
      const status = runtime.mcp.statuses().find(({ name }) => name === server);
      const down = exitOfState(status?.state ?? 'disconnected');
      if (status === undefined || down !== EXIT.ok) {
        const why = status === undefined ? [] : statusDetail(status).map((line) => line.trim());
        return failure(
          down === EXIT.ok ? EXIT.unreachable : down,
          status?.state ?? 'disconnected',
          [`MCP server "${server}" is ${status?.state ?? 'not connected'}.`, ...why].join('\n'),
        );
      }
      const tools = toolsOf(runtime, server);
      const found = tools.find(({ name, tool }) => name === wanted || rawName(tool) === wanted);
      if (found === undefined) {
        const names = tools.map(({ tool }) => rawName(tool)).join(', ') || 'none';
        throw new UsageError(
          `MCP server "${server}" has no tool "${wanted}" (its tools: ${names})`,
        );
      }
      const args = toolArgs(
        found.tool,
        stringOption(invocation, 'args'),
        stringOptions(invocation, 'arg'),
      );
      let result: Awaited<ReturnType<EpochTool['execute']>>;
      try {
        result = await found.tool.execute(args, { signal: io.signal });
      } catch (error) {
        if (!isMcpError(error)) throw error;
        return failure(exitOfError(error.code), error.code, error.message);
      }
      io.out(invocation.json ? `${JSON.stringify(result, null, 2)}\n` : renderToolResult(result));
      if (result.isError !== true) return EXIT.ok;
      return failure(
        EXIT.failed,
        'tool_error',
        `tool "${rawName(found.tool)}" of MCP server "${server}" reported an error${invocation.json ? '' : ' (its output is above)'}.`,
      );
    });
  },
};

/** The tool's name on its server (or list_resources / read_resource). */
function rawName(tool: ResolvedTool['tool']): string {
  const { target } = tool as McpEpochTool;
  return target.kind === 'tool' ? target.name : target.kind;
}
