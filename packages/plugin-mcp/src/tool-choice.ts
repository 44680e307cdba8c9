// Which of a server's tools the model is offered, by the user's `include_tools` / `exclude_tools`:
// names as the server gives them, `*` matching any run of characters, exclude winning. The registry
// filters with it, and the runtime warns with it about a name no tool of the server has.
import type { McpEpochTool } from './tools.js';
import type { McpServerChoice, McpToolPattern } from './types.js';

/** An entry without `enabled`, `include_tools` or `exclude_tools`: running, every tool offered. */
export const EVERY_TOOL: McpServerChoice = { enabled: true, excludeTools: [] };

/** The name a tool has on its server, the one the patterns are written against. */
export function serverToolName(tool: McpEpochTool): string {
  return tool.target.kind === 'tool' ? tool.target.name : tool.target.kind;
}

/** Whether the choice offers the server's tool of that name (its server being enabled). */
export function offersTool(choice: McpServerChoice, name: string): boolean {
  const { includeTools, excludeTools } = choice;
  if (excludeTools.some(({ pattern }) => matches(pattern, name))) return false;
  return includeTools === undefined || includeTools.some(({ pattern }) => matches(pattern, name));
}

/** The patterns that match none of `names`: written for a tool the server does not have. */
export function unmatchedPatterns(
  choice: McpServerChoice,
  names: readonly string[],
): McpToolPattern[] {
  return [...(choice.includeTools ?? []), ...choice.excludeTools].filter(
    ({ pattern }) => !names.some((name) => matches(pattern, name)),
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

// The classic two-pointer wildcard match: on a mismatch, the last `*` takes one more character.
// At most name × pattern steps, where a regular expression of many `*` can backtrack for ages on a
// hostile file's pattern.
function matches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
      p += 1;
      n += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = n;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      n = resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p += 1;
  return p === pattern.length;
}
