// The remote server a command names (`epoch mcp login <name>`, `logout <name>`), looked up in the
// user's mcp.json. A name the file does not define, and a stdio server (it has no OAuth login: its
// credentials come from `env`), are each a message that says what to do instead.
import { redactUrl } from '@epoch-agent/infra';
import { loadMcpConfig, type RemoteServerConfig } from '@epoch-agent/plugin-mcp';
import { renderDiagnostics } from './diagnostics.js';

export type RemoteServerLookup =
  | { readonly ok: true; readonly config: RemoteServerConfig<'sse' | 'http'> }
  | { readonly ok: false; readonly message: string };

export async function remoteServerNamed(
  file: string,
  name: string,
  command: 'login' | 'logout',
): Promise<RemoteServerLookup> {
  const { servers, diagnostics } = await loadMcpConfig(file);
  const config = servers.find((server) => server.name === name);
  if (config === undefined) {
    const known = servers.map((server) => server.name);
    const defined =
      known.length === 0 ? 'it defines no servers' : `the servers there are: ${known.join(', ')}`;
    // A server with an error in its entry is left out of `servers`: its problem may be the reason.
    return {
      ok: false,
      message: `epoch mcp ${command}: there is no MCP server "${name}" in ${file} (${defined}).\n${renderDiagnostics(diagnostics)}`,
    };
  }
  if (config.transport === 'stdio') {
    return {
      ok: false,
      message: `epoch mcp ${command}: MCP server "${name}" in ${file} is a stdio server; OAuth login is only for remote servers (sse / http, with a "url"). A stdio server gets its credentials from its "env".\n`,
    };
  }
  return { ok: true, config };
}

/** The server's URL as it may be shown: credentials in it blanked. */
export function shownUrl(config: RemoteServerConfig<'sse' | 'http'>): string {
  return redactUrl(config.url);
}
