// What `epoch mcp login` and `logout` share: the remote server they name, found among every
// server the runtime knows (none is started), and how their failures read. A stdio server has no
// OAuth login, and one that answers without a login needs none: those are a wrong command line,
// not a failure.
import {
  type ConfiguredServer,
  isMcpError,
  isRuntimeError,
  type Runtime,
} from '@epoch-agent/runtime';
import { fail, type Invocation, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withAdvice } from '../render/advice.js';
import { withRuntime } from '../session.js';
import { findServer } from './server-lookup.js';

export function withRemoteServer(
  io: CliIo,
  invocation: Invocation,
  name: string,
  words: string,
  body: (runtime: Runtime, server: ConfiguredServer) => Promise<ExitCode>,
): Promise<ExitCode> {
  return withRuntime(io, invocation, { connectOnly: [] }, async (runtime) => {
    const server = findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    try {
      return await body(runtime, server);
    } catch (error) {
      if (isRuntimeError(error, 'not_remote_server')) throw new UsageError(error.message);
      if (!isMcpError(error)) throw error;
      // A login of a server that needs none is a wrong command line too; any other failure is one.
      const exit = error.code === 'login_not_needed' ? EXIT.usage : EXIT.failed;
      const message = withAdvice(error.code, error.message, server);
      return fail(io, invocation, exit, { code: error.code, message }, words);
    }
  });
}
