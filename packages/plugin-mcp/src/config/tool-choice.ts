// Which of a server's tools the model is offered, by the user's `include_tools` / `exclude_tools`:
// names as the server gives them, `*` matching any run of characters, exclude winning. The registry
// filters with it, and the runtime warns with it about a name no tool of the server has.
import type { McpEpochTool, McpToolTarget } from '../tools/epoch-tools.js';
import type { McpServerChoice, McpToolPattern } from '../types.js';

/** An entry without `enabled`, `include_tools` or `exclude_tools`: running, every tool offered. */
export const EVERY_TOOL: McpServerChoice = { enabled: true, excludeTools: [] };

/** The name a tool has on its server, the one the patterns are written against. */
export function serverToolName(tool: McpEpochTool): string {
  return tool.target.kind === 'tool' ? tool.target.name : tool.target.kind;
}

// A Record, so a new kind of tool of a server's own cannot be left out of the names below.
const RESOURCE_TOOLS: Record<Exclude<McpToolTarget['kind'], 'tool'>, true> = {
  list_resources: true,
  read_resource: true,
};

/**
 * The names the patterns are matched against, for a server that lists these tools: theirs, then
 * the resource pair's when it declares resources (as the registry's tools are built).
 */
export function serverToolNames(schema: {
  readonly tools: readonly { readonly name: string }[];
  readonly resources: boolean;
}): string[] {
  const pair = schema.resources ? Object.keys(RESOURCE_TOOLS) : [];
  return [...schema.tools.map(({ name }) => name), ...pair];
}

/** How many of those names the choice offers, and how many it turns off. */
export function choiceCounts(
  choice: McpServerChoice,
  names: readonly string[],
): { readonly offered: number; readonly off: number } {
  const offered = names.filter((name) => offersTool(choice, name)).length;
  return { offered, off: names.length - offered };
}

/** Whether the choice offers the server's tool of that name (its server being enabled). */
export function offersTool(choice: McpServerChoice, name: string): boolean {
  const { includeTools, excludeTools } = choice;
  if (excludeTools.some(({ pattern }) => matchesToolPattern(pattern, name))) return false;
  return (
    includeTools === undefined ||
    includeTools.some(({ pattern }) => matchesToolPattern(pattern, name))
  );
}

/** The patterns that match none of `names`: written for a tool the server does not have. */
export function unmatchedPatterns(
  choice: McpServerChoice,
  names: readonly string[],
): McpToolPattern[] {
  return [...(choice.includeTools ?? []), ...choice.excludeTools].filter(
    ({ pattern }) => !names.some((name) => matchesToolPattern(pattern, name)),
  );
}

/** Same meaning: enabled alike, the same patterns in each list (where they are written aside). */
export function sameChoice(a: McpServerChoice, b: McpServerChoice): boolean {
  const texts = (list: readonly McpToolPattern[] | undefined) =>
    list === undefined ? undefined : list.map(({ pattern }) => pattern).join('\0');
  return (
    a.enabled === b.enabled &&
    texts(a.includeTools) === texts(b.includeTools) &&
    texts(a.excludeTools) === texts(b.excludeTools)
  );
}

/** Whether a name of include_tools / exclude_tools stands for `tool`: `*` is any run of characters. */
export function matchesToolPattern(pattern: string, tool: string): boolean {
  const [first = '', ...rest] = pattern.split('*');
  const last = rest.pop();
  if (last === undefined) return pattern === tool;
  if (!tool.startsWith(first) || tool.length < first.length + last.length) return false;
  // Each middle part at its earliest place leaves the most room for the ones after it, so one
  // pass decides: no backtracking, however many `*` a hostile file writes.
  let at = first.length;
  const end = tool.length - last.length;
  for (const part of rest) {
    const found = tool.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return tool.endsWith(last);
}
