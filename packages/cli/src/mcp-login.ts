// `epoch mcp login <name>`: an interactive OAuth login to one remote server of the user's mcp.json.
// It prints the authorization URL (a browser is opened where there is one; when that fails, the
// printed URL is the way), waits for the callback on 127.0.0.1, stores the tokens (0600, under
// EPOCH_HOME) and checks them by listing the server's tools. Running hosts pick the login up at
// their next reconnect, or at the server's next 401.
//
// Nothing printed here holds a token: only the issuer, the scope granted and when it expires.
import {
  defaultTokenDir,
  loginToServer,
  type McpLoginResult,
  TokenStore,
} from '@epoch-agent/plugin-mcp';
import type { CliIo, ExitCode } from './io.js';
import { remoteServerNamed, shownUrl } from './remote-server.js';

export interface McpLoginOptions {
  readonly file: string;
  readonly name: string;
}

export async function mcpLogin(options: McpLoginOptions, io: CliIo): Promise<ExitCode> {
  const { name } = options;
  const found = await remoteServerNamed(options.file, name, 'login');
  if (!found.ok) {
    io.err(found.message);
    return 2;
  }
  const { config } = found;
  io.out(`Logging in to MCP server "${name}" (${shownUrl(config)}) ...\n`);
  const { openUrl } = io;
  try {
    const result = await loginToServer({
      config,
      store: new TokenStore({ dir: defaultTokenDir(io.env) }),
      onAuthorizationUrl: (url) =>
        io.out(
          `\nOpen this URL in a browser to log in${openUrl === undefined ? '' : ' (epoch tries to open it for you)'}:\n\n  ${url}\n\nWaiting for the login to finish ...\n`,
        ),
      openUrl: openUrl ?? (() => Promise.resolve()),
    });
    io.out(`\n${success(name, result)}\n`);
    return 0;
  } catch (error) {
    io.err(`\nepoch mcp login: ${(error as Error).message}\n`);
    return 1;
  }
}

function success(name: string, result: McpLoginResult): string {
  const scope = result.scope === undefined ? '' : ` with scope "${result.scope}"`;
  const expiry =
    result.expiresAt === undefined
      ? ''
      : ` The access token expires in ${Math.max(0, Math.round((result.expiresAt - Date.now()) / 1000))} s and is refreshed automatically.`;
  return `Logged in to "${name}" at ${result.issuer}${scope}; the server lists ${result.toolCount} tool(s).${expiry} A running epoch picks the login up when it reconnects "${name}".`;
}
