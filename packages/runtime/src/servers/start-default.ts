// When a server whose entry says no `start` starts, by who runs the runtime, and why (README
// "Started when used").
import type { McpStartMode } from '@epoch-agent/plugin-mcp';

/**
 * buildRuntime's default: on demand. An agent's session calls few of the servers it is given (two
 * of fifteen is common), and each one started costs a process tree, tens of MB and its start-up
 * CPU in every agent process. With the schema cache the model is offered the same tools either
 * way; the first call of a server pays that server's own start, once, then it stays until it is
 * idle. A server never seen before still connects at the build, once, to learn its tools.
 */
export const HOST_START: McpStartMode = 'on_demand';

/**
 * The `epoch` command's and the connectors page's default: at start. A person runs them to see
 * whether servers work (`status`, `tools`, the page's states), so every server is started, as
 * before; an entry's own `"start": "on_demand"` still holds there, and shows as `notStarted`.
 */
export const FRONT_END_START: McpStartMode = 'at_start';
