// `epoch mcp logout <name>`: deletes the stored OAuth login of one remote server of the user's
// mcp.json, after asking the authorization server to revoke its tokens (RFC 7009) where it can.
// The local login is deleted whether or not the revocation worked; the output says which.
import { defaultTokenDir, logoutFromServer, TokenStore } from '@epoch-agent/plugin-mcp';
import type { CliIo, ExitCode } from './io.js';
import { remoteServerNamed } from './remote-server.js';

export interface McpLogoutOptions {
  readonly file: string;
  readonly name: string;
}

export async function mcpLogout(options: McpLogoutOptions, io: CliIo): Promise<ExitCode> {
  const { name } = options;
  const found = await remoteServerNamed(options.file, name, 'logout');
  if (!found.ok) {
    io.err(found.message);
    return 2;
  }
  try {
    const result = await logoutFromServer({
      config: found.config,
      store: new TokenStore({ dir: defaultTokenDir(io.env) }),
    });
    if (result.removed === 0) {
      io.out(`No stored login for MCP server "${name}"; nothing to log out of.\n`);
      return 0;
    }
    const revocation = result.revoked
      ? 'the authorization server revoked its tokens'
      : `its tokens were not revoked at the authorization server (${result.revokeProblem ?? 'no reason given'}); they stop working when they expire`;
    io.out(`Logged out of MCP server "${name}": its stored login is deleted, and ${revocation}.\n`);
    return 0;
  } catch (error) {
    io.err(`epoch mcp logout: ${(error as Error).message}\n`);
    return 1;
  }
}
