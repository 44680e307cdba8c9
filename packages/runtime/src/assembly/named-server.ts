// The server a request made of the runtime names, of any source: a name none has is RuntimeError
// `unknown_server`, saying what it may have meant or which names there are.
import { suggest } from '@epoch-agent/plugin-mcp/config';
import { RuntimeError } from '../errors.js';
import type { ConfiguredServer } from '../servers/configured-server.js';

export function namedServer(
  servers: readonly ConfiguredServer[],
  name: string,
  configFile: string,
): ConfiguredServer {
  const server = servers.find(({ config }) => config.name === name);
  if (server !== undefined) return server;
  const known = servers.map(({ config }) => config.name);
  const guess = suggest(name, known);
  throw new RuntimeError(
    'unknown_server',
    `there is no MCP server "${name}" (${known.length === 0 ? `${configFile} defines none` : guess !== undefined ? `did you mean "${guess}"?` : `the servers are: ${known.join(', ')}`}).`,
    { server: name },
  );
}
