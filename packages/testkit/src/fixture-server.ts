// Where the testkit's stdio fixture server is (fixture-server.mjs, plain JavaScript so it starts
// without a build; its header says what each argument does), and how a test runs it.
import { fileURLToPath } from 'node:url';

/** The fixture server's script; with no --catalog it serves the `pid` catalog. */
export const FIXTURE_SERVER = fileURLToPath(new URL('../fixture-server.mjs', import.meta.url));

/** Which tools the fixture server offers (see the script's header). */
export type FixtureCatalog = 'pid' | 'annotated' | 'cli' | 'refs' | 'form' | 'progress' | 'ask';

/** The arguments (after node) that run the fixture server with `catalog`'s tools and `args`. */
export function fixtureServerArgs(catalog: FixtureCatalog, ...args: string[]): string[] {
  return [FIXTURE_SERVER, `--catalog=${catalog}`, ...args];
}

/** A stdio mcp.json entry: this Node running the fixture server. */
export function fixtureServerEntry(
  catalog: FixtureCatalog,
  ...args: string[]
): { command: string; args: string[] } {
  return { command: process.execPath, args: fixtureServerArgs(catalog, ...args) };
}
