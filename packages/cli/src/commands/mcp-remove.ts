// `epoch mcp remove <name>`: the server out of the user's mcp.json, as a text edit that leaves every
// other byte (comments included) as it was. Host and plugin servers are not in that file: the
// message says where they come from.
import { isMcpConfigWriteError, isRuntimeError } from '@epoch-agent/runtime';
import { type Command, fail, operands } from '../command.js';
import { EXIT } from '../io.js';
import { withRuntime } from '../session.js';

export const mcpRemove: Command = {
  words: 'mcp remove',
  synopsis: '<name>',
  summary: 'take a server out of your mcp.json, leaving the rest of the file as it was',
  options: {},
  readsConfig: true,
  async run(invocation, io) {
    const [name = ''] = operands(invocation, 'name');
    try {
      // Nothing needs to run to take an entry out of a file.
      const { file } = await withRuntime(io, invocation, { connectOnly: [] }, (runtime) =>
        runtime.removeServer(name),
      );
      io.out(`Removed ${name} from ${file}.\n`);
      return EXIT.ok;
    } catch (error) {
      const known = isRuntimeError(error, 'not_user_server') || isMcpConfigWriteError(error);
      if (!known) throw error;
      const exit = isMcpConfigWriteError(error, 'unknown_server') ? EXIT.usage : EXIT.failed;
      return fail(io, invocation, exit, { code: error.code, message: error.message }, 'mcp remove');
    }
  },
};
