// `epoch mcp logout <name>`: deletes the stored OAuth login of one remote server, after asking the
// authorization server to revoke its tokens (RFC 7009) where it can. The local login is deleted
// whether or not the revocation worked; the output says which.
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withRemoteServer } from './remote-login.js';

/** `epoch mcp logout`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  return withRemoteServer(io, invocation, name, 'mcp logout', async (runtime) => {
    const result = await runtime.logout(name);
    if (result.removed === 0) {
      io.out(`No stored login for MCP server "${name}"; nothing to log out of.\n`);
      return EXIT.ok;
    }
    const revocation = result.revoked
      ? 'the authorization server revoked its tokens'
      : `its tokens were not revoked at the authorization server (${result.revokeProblem ?? 'no reason given'}); they stop working when they expire`;
    io.out(`Logged out of MCP server "${name}": its stored login is deleted, and ${revocation}.\n`);
    return EXIT.ok;
  });
}
