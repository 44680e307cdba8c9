// A registry connected to one server for a test, and a call of one of its tools, as the task tests
// make them: closed by the test file's cleanups, in the order they were made, reversed.
import { McpRegistry } from '../../src/registry/registry.js';
import type { McpServerConfig } from '../../src/types.js';

export type Cleanups = Array<() => Promise<void>>;

/** A registry with `config` connected (no schema cache); throws with the status when it is not. */
export async function connectedRegistry(
  cleanups: Cleanups,
  config: McpServerConfig,
): Promise<McpRegistry> {
  const registry = new McpRegistry({ schemaCache: null });
  cleanups.push(() => registry.disconnectAll());
  const [status] = await registry.connectAll([config], 'user');
  if (status?.state !== 'connected') throw new Error(`not connected: ${JSON.stringify(status)}`);
  return registry;
}

/** The registry's tool `name`, executed with `args` and a signal nobody aborts. */
export function callTool(registry: McpRegistry, name: string, args: Record<string, unknown> = {}) {
  const tool = registry.tools().find((each) => each.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute(args, { signal: new AbortController().signal });
}
