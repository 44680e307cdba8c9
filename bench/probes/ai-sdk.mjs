// The AI SDK's MCP client (`@ai-sdk/mcp` 2.x), loaded by path from bench/peers, where the bench
// installs it apart from the repo (it asks for Node 22, which the repo's own install does not).
// Only the probes load it, and they run on Node 22.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const peers = createRequire(new URL('../peers/package.json', import.meta.url));

/** `{ createMCPClient, StdioMCPTransport }` of the installed `@ai-sdk/mcp`. */
export async function loadAiSdk() {
  const load = (specifier) => import(pathToFileURL(peers.resolve(specifier)).href);
  const [{ createMCPClient }, { StdioMCPTransport }] = await Promise.all([
    load('@ai-sdk/mcp'),
    load('@ai-sdk/mcp/mcp-stdio'),
  ]);
  return { createMCPClient, StdioMCPTransport };
}
