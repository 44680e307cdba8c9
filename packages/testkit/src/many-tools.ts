// Ten real servers with 158 tools between them, for what only a large tool set shows (the tool
// budget, the search over deferred tools): the reference server, the memory, filesystem and
// sequential-thinking reference servers, and six catalog servers whose tools read like real
// products' (GitHub, Slack, a ticket tracker, mail and calendar, PostgreSQL, a browser), each
// catalog a file in bench/fixtures/catalogs served by bench/fixtures/catalog-server.mjs.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERYTHING_ENTRY } from './everything.js';

const require = createRequire(import.meta.url);
// The repo's bench fixtures: beside src/ and dist/ alike, so this resolves from either.
const FIXTURES = fileURLToPath(new URL('../../../bench/fixtures/', import.meta.url));

/** The phrasings the search is measured on (see its "about"). */
export const SEARCH_PHRASINGS_FILE = join(FIXTURES, 'search-phrasings.json');

export const CATALOGS = ['github', 'slack', 'tracker', 'workspace', 'database', 'browser'] as const;

/** One stdio entry of mcp.json's `servers`, as the user would write it. */
export interface StdioEntry {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

function entryOf(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');
}

/** The reference filesystem server's entry: started with no directory, it works in the client's roots. */
export const FILESYSTEM_ENTRY = entryOf('@modelcontextprotocol/server-filesystem');

/**
 * The ten servers by name. `dir` is a directory of the caller's: the filesystem server may read
 * and write only there, and the memory server keeps its graph in it.
 */
export function manyToolServers(dir: string): Record<string, StdioEntry> {
  const node = process.execPath;
  const catalogs = Object.fromEntries(
    CATALOGS.map((name) => [
      name,
      {
        command: node,
        args: [join(FIXTURES, 'catalog-server.mjs'), join(FIXTURES, 'catalogs', `${name}.json`)],
      },
    ]),
  );
  return {
    everything: { command: node, args: [EVERYTHING_ENTRY, 'stdio'] },
    memory: {
      command: node,
      args: [entryOf('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    },
    filesystem: { command: node, args: [FILESYSTEM_ENTRY, dir] },
    thinking: {
      command: node,
      args: [entryOf('@modelcontextprotocol/server-sequential-thinking')],
      env: { DISABLE_THOUGHT_LOGGING: 'true' },
    },
    ...catalogs,
  };
}
