// `epoch mcp login <name>`: an interactive OAuth login to one remote server. It prints the
// authorization URL (a browser is opened where there is one; when that fails, the printed URL is
// the way), waits for the callback on 127.0.0.1, stores the tokens (0600, under EPOCH_HOME) and
// checks them by listing the server's tools. Running hosts pick the login up at their next
// reconnect, or at the server's next 401.
//
// Nothing printed here holds a token: only the issuer, the scope granted and when it expires.
import type { McpLoginResult } from '@epoch-agent/runtime';
import { type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { counted } from '../render/counted.js';
import { shownLine } from '../render/server-text.js';
import { withRemoteServer } from './remote-login.js';

/** `epoch mcp login`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  const { openUrl } = io;
  // Nothing starts: the login checks itself by connecting once with the new tokens.
  return withRemoteServer(io, invocation, name, 'mcp login', async (runtime, { config }) => {
    if (config.transport !== 'stdio') {
      io.out(`Logging in to MCP server "${name}" (${shownUrl(config.url)}) ...\n`);
    }
    const result = await runtime.login(name, {
      onAuthorizationUrl: (url) =>
        io.out(
          `\nOpen this URL in a browser to log in${openUrl === undefined ? '' : ' (epoch tries to open it for you)'}:\n\n  ${shownLine(url)}\n\nWaiting for the login to finish ...\n`,
        ),
      openUrl: openUrl ?? (() => Promise.resolve()),
      // Ctrl-C or SIGTERM ends the login: its callback listener closes and nothing is stored.
      signal: io.signal,
    });
    io.out(`\n${success(name, result)}\n`);
    return EXIT.ok;
  });
}

function shownUrl(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return '<redacted>';
  }
}

function success(name: string, result: McpLoginResult): string {
  // The issuer and the scope are the authorization server's words.
  const scope = result.scope === undefined ? '' : ` with scope "${shownLine(result.scope)}"`;
  const expiry =
    result.expiresAt === undefined
      ? ''
      : ` The access token expires in ${Math.max(0, Math.round((result.expiresAt - Date.now()) / 1000))} s and is refreshed automatically.`;
  return `Logged in to "${name}" at ${shownLine(result.issuer)}${scope}; the server lists ${counted(result.toolCount, 'tool')}.${expiry} A running epoch picks the login up when it reconnects "${name}".`;
}
