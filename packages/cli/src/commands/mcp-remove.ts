// `epoch mcp remove <name>`: the server out of the user's mcp.json, as a text edit that takes the
// entry and its own comment (the lines directly above it) and leaves every other byte as it was. Host and plugin servers are not in that file: the
// message says where they come from.
import { isMcpConfigWriteError, isRuntimeError } from '@epoch-agent/runtime';
import { fail, type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withRuntime } from '../session.js';
import { failWrite } from './write-failure.js';

const WORDS = 'mcp remove';

/** `epoch mcp remove`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  try {
    // Nothing needs to run to take an entry out of a file.
    const { file } = await withRuntime(io, invocation, { connectOnly: [] }, (runtime) =>
      runtime.removeServer(name),
    );
    io.out(`Removed ${name} from ${file}.\n`);
    return EXIT.ok;
  } catch (error) {
    if (isMcpConfigWriteError(error)) return failWrite(io, invocation, error, WORDS);
    if (!isRuntimeError(error, 'not_user_server')) throw error;
    return fail(io, invocation, EXIT.failed, { code: error.code, message: error.message }, WORDS);
  }
}
