// `epoch mcp reconnect <name>`: connects one server afresh — its cached tool list forgotten — and
// says how that went. What a person runs after fixing a server, or to see its live tools again.
import { terminalJson } from '@epoch-agent/infra';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withRuntime } from '../session.js';
import { exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';

/** `epoch mcp reconnect`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  return withRuntime(io, invocation, { connectOnly: [name] }, async (runtime) => {
    findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    const status = await runtime.mcp.reconnect(name);
    if (invocation.json) io.out(`${terminalJson(status, 2)}\n`);
    else {
      const tools = status.state === 'connected' ? `, ${status.toolCount} tool(s)` : '';
      io.out(`${[`${name}: ${status.state}${tools}`, ...statusDetail(status)].join('\n')}\n`);
    }
    const exit = exitOfState(status.state);
    return exit === EXIT.ok && status.state !== 'connected' ? EXIT.unreachable : exit;
  });
}
