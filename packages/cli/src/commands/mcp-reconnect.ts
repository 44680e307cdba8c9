// `epoch mcp reconnect <name>`: connects one server afresh — its cached tool list forgotten — and
// says how that went. What a person runs after fixing a server, or to see its live tools again.
import { terminalJson } from '@epoch-agent/infra';
import { isMcpError, type McpServerStatus } from '@epoch-agent/runtime';
import { fail, type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withAdvice } from '../render/advice.js';
import { counted } from '../render/counted.js';
import { withRuntime } from '../session.js';
import { exitOfError, exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';

/** `epoch mcp reconnect`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  return withRuntime(io, invocation, { connectOnly: [name] }, async (runtime) => {
    const server = findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    let status: McpServerStatus;
    try {
      status = await runtime.mcp.reconnect(name);
    } catch (error) {
      // A server turned off has nothing to reconnect: the message says how to turn it on.
      if (!isMcpError(error)) throw error;
      const message = withAdvice(error.code, error.message, server);
      const failure = { code: error.code, message, server: name };
      return fail(io, invocation, exitOfError(error.code), failure, 'mcp reconnect');
    }
    if (invocation.json) io.out(`${terminalJson(status, 2)}\n`);
    else {
      const tools = status.state === 'connected' ? `, ${counted(status.toolCount, 'tool')}` : '';
      io.out(
        `${[`${name}: ${status.state}${tools}`, ...statusDetail(status, server)].join('\n')}\n`,
      );
    }
    const exit = exitOfState(status.state);
    return exit === EXIT.ok && status.state !== 'connected' ? EXIT.unreachable : exit;
  });
}
