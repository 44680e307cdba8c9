// Waiting for servers that are still connecting. A server whose tools came from the schema cache is
// `connecting` while the runtime is already built; a command that shows live facts waits until it
// has connected or failed (at most its connect_timeout, or until Ctrl-C closes the runtime).
import type { McpServerStatus, Runtime } from '@epoch-agent/runtime';

export function settled(runtime: Runtime, names: readonly string[]): Promise<McpServerStatus[]> {
  const pending = (statuses: readonly McpServerStatus[]) =>
    statuses.some(({ name, state }) => names.includes(name) && state === 'connecting');
  const shown = () => runtime.mcp.statuses().filter(({ name }) => names.includes(name));
  if (!pending(runtime.mcp.statuses())) return Promise.resolve(shown());
  return new Promise((resolve) => {
    const stop = runtime.mcp.onStatus(() => {
      if (pending(runtime.mcp.statuses())) return;
      stop();
      resolve(shown());
    });
  });
}
