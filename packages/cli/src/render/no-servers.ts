// What list, status and tools say when there is no server at all: whether the user's file is
// there and empty, or not there — "no servers in X" of a file that does not exist sends a person
// looking for servers in it, when the file name itself (a typo in --config) is the problem.
import { stat } from 'node:fs/promises';

export async function noServers(configFile: string): Promise<string> {
  const exists = await stat(configFile).then(
    () => true,
    () => false,
  );
  return exists
    ? `No MCP servers in ${configFile} or in installed plugins.\n`
    : `No MCP servers: ${configFile} does not exist ("epoch mcp add" creates it), and no installed plugin has any.\n`;
}
