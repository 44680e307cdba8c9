// `epoch mcp approve <name>` and `epoch mcp revoke <name>`: a person's say over a server that the
// trust rules hold until approved (the README's "Trust" section). Approve shows what the server
// would run, exactly as it would run it, asks, records the approval of that launch and starts it;
// of a server that runs, it approves the tools withheld since they changed (approve-tools.ts).
// Revoke forgets every approval of it and starts nothing.
import { terminalJson } from '@epoch-agent/infra';
import {
  type ConfiguredServer,
  describeLaunch,
  type McpLaunch,
  type McpServerStatus,
  type Runtime,
} from '@epoch-agent/runtime';
import { saidYes } from '../ask.js';
import { fail, type Invocation, operands, stringOptions, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { startProgress } from '../progress.js';
import { counted } from '../render/counted.js';
import { launchLines } from '../render/launch.js';
import { stateWords } from '../render/state-words.js';
import { withRuntime } from '../session.js';
import { approveTools } from './approve-tools.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';

/** `epoch mcp approve`: its table entry (words, options, help) is in table.ts. */
export function approve(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  // Only this server may start, and only once approved: held, it starts nothing at the build. No
  // schema cache: its tools are compared with the approved ones as it lists them now.
  const options = { connectOnly: [name], registry: { offerCachedTools: false } };
  return withRuntime(io, invocation, options, async (runtime) => {
    const server = findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    const state = runtime.mcp.statuses().find((status) => status.name === name)?.state;
    // Held, what it runs is approved first; turned off, that is all there is to approve (nothing
    // runs to list tools). Running, what is left to approve is its tools.
    if (state !== 'needsApproval' && state !== 'disabled') {
      return approveTools(runtime, server, invocation, io);
    }
    if (stringOptions(invocation, 'tool').length > 0) throw new UsageError(noToolsYet(name, state));
    const launch = describeLaunch(server.config);
    if (!invocation.json) io.out(shownLaunch(server, launch));
    if (invocation.values.yes !== true) {
      if (io.ask === undefined || invocation.json) {
        const message = `nothing was approved: epoch asks before it approves, and asks only on a terminal. Run "epoch mcp approve ${name}" there, or add --yes to approve what is shown${invocation.json ? ' (the launch is in this error)' : ' above'} without a question.`;
        return fail(
          io,
          invocation,
          EXIT.failed,
          { code: 'not_approved', message, server: name, launch },
          'mcp approve',
        );
      }
      if (!saidYes(await io.ask('Approve it and start it? [y/N] '))) {
        if (!io.signal.aborted) io.err('Not approved; nothing was started.\n');
        return EXIT.failed;
      }
    }
    const status = await started(io, invocation, runtime, name);
    if (invocation.json) {
      io.out(`${terminalJson({ server: name, launch, approved: true, status }, 2)}\n`);
    } else {
      const tools = status.state === 'connected' ? `: ${counted(status.toolCount, 'tool')}` : '';
      io.out(`Approved. ${name} ${stateWords(status.state)}${tools}.\n`);
      const detail = statusDetail(status, server);
      if (detail.length > 0) io.out(`${detail.join('\n')}\n`);
    }
    return status.state === 'connected' || status.state === 'idle' ? EXIT.ok : EXIT.failed;
  });
}

/** `epoch mcp revoke`: its table entry (words, options, help) is in table.ts. */
export function revoke(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  // Nothing starts: revoking is about the next start, not this one.
  return withRuntime(io, invocation, { connectOnly: [] }, async (runtime) => {
    const server = findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    const { needsApproval } = await runtime.revokeServer(name);
    if (invocation.json) {
      io.out(`${terminalJson({ server: name, needsApproval }, 2)}\n`);
      return EXIT.ok;
    }
    io.out(
      needsApproval
        ? `Revoked: ${name} does not start until it is approved again ("epoch mcp approve ${name}").\n`
        : `Revoked; ${name} still starts all the same: ${trustedWhy(server)}.\n`,
    );
    return EXIT.ok;
  });
}

/** Why --tool has nothing to approve yet: no tool of a server that does not run is withheld. */
function noToolsYet(name: string, state: 'needsApproval' | 'disabled'): string {
  return state === 'disabled'
    ? `MCP server "${name}" is turned off, so none of its tools is withheld: turn it on with "epoch mcp enable ${name}", and approve its tools once they changed.`
    : `MCP server "${name}" waits for your approval of what it runs: approve that with "epoch mcp approve ${name}" (without --tool); its tools are pinned as it first lists them, so none is withheld then.`;
}

/** Why a server that needs no approval is trusted: the host's code, or the user's own file. */
function trustedWhy({ origin, config }: ConfiguredServer): string {
  return origin.source === 'host'
    ? "the host's servers are in its code and are trusted"
    : `it is an entry of your own mcp.json, which is trusted; take it out with "epoch mcp remove ${config.name}", or turn it off with "epoch mcp disable ${config.name}"`;
}

function shownLaunch(server: ConfiguredServer, launch: McpLaunch): string {
  const { origin, config } = server;
  const where = origin.source === 'host' ? origin.source : `${origin.source}, ${origin.file}`;
  const lines = launchLines(launch).map((line) => `  ${line}\n`);
  return `MCP server "${config.name}" (${where}):\n${lines.join('')}`;
}

/** Approves and starts the server; its connect is drawn on a terminal while it runs. */
async function started(
  io: CliIo,
  invocation: Invocation,
  runtime: Runtime,
  name: string,
): Promise<McpServerStatus> {
  const progress = startProgress(io, !invocation.json);
  const stop = runtime.mcp.onStatus(progress.onStatus);
  try {
    return await runtime.approveServer(name);
  } finally {
    stop();
    progress.stop();
  }
}
