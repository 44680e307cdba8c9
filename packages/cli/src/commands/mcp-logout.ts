// `epoch mcp logout <name>`: deletes the stored OAuth login of one remote server, after asking the
// authorization server to revoke its tokens (RFC 7009) where it can. The local login is deleted
// whether or not the revocation worked; the output says which.
import { isMcpError, isRuntimeError } from '@epoch-agent/runtime';
import { type Command, fail, operands, UsageError } from '../command.js';
import { EXIT } from '../io.js';
import { withRuntime } from '../session.js';
import { findServer } from './server-lookup.js';

export const mcpLogout: Command = {
  words: 'mcp logout',
  synopsis: '<name>',
  summary: "delete a remote server's stored OAuth login and revoke its tokens",
  options: {},
  readsConfig: true,
  run(invocation, io) {
    const [name = ''] = operands(invocation, 'name');
    return withRuntime(io, invocation, { connectOnly: [] }, async (runtime) => {
      findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
      try {
        const result = await runtime.logout(name);
        if (result.removed === 0) {
          io.out(`No stored login for MCP server "${name}"; nothing to log out of.\n`);
          return EXIT.ok;
        }
        const revocation = result.revoked
          ? 'the authorization server revoked its tokens'
          : `its tokens were not revoked at the authorization server (${result.revokeProblem ?? 'no reason given'}); they stop working when they expire`;
        io.out(
          `Logged out of MCP server "${name}": its stored login is deleted, and ${revocation}.\n`,
        );
        return EXIT.ok;
      } catch (error) {
        if (isRuntimeError(error, 'not_remote_server')) {
          throw new UsageError(error.message);
        }
        if (!isMcpError(error)) throw error;
        return fail(
          io,
          invocation,
          EXIT.failed,
          { code: error.code, message: error.message },
          'mcp logout',
        );
      }
    });
  },
};
