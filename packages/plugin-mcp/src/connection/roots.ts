// The directories a host lets its servers work in (MCP roots): what a server is told when it asks
// for them (roots/list, or inside a 2026-era input_required), always as file:// URIs. A host that
// gives none declares no `roots` capability at all, so a server never asks.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * One directory: a path (a relative one is taken from the process's working directory) or a
 * file:// URI, and optionally the name a server may show for it.
 */
export type McpRoot = string | { readonly dir: string; readonly name?: string };

/**
 * The host's roots: a fixed list, or a function asked each time a server wants them (call
 * `McpRegistry.notifyRootsChanged()` when what it returns changes).
 */
export type McpRoots =
  | readonly McpRoot[]
  | (() => readonly McpRoot[] | Promise<readonly McpRoot[]>);

/** A root as the protocol carries it. */
export interface WireRoot {
  readonly uri: string;
  readonly name?: string;
}

/** The roots as a server is sent them, asked of the host's function afresh each time. */
export async function rootsOnTheWire(roots: McpRoots): Promise<WireRoot[]> {
  const list = typeof roots === 'function' ? await roots() : roots;
  return list.map((root) => {
    const { dir, name } = typeof root === 'string' ? { dir: root, name: undefined } : root;
    return name === undefined ? { uri: uriOf(dir) } : { uri: uriOf(dir), name };
  });
}

function uriOf(dir: string): string {
  return dir.startsWith('file://') ? dir : pathToFileURL(resolve(dir)).href;
}
