// What changed between two versions of one server's tools, as the model sees them: by model-visible
// name, so the diff also covers the resource tool pair appearing or going and a rename forced by a
// name collision. "Changed" is anything a model or the permission system reads off a tool.
import { isDeepStrictEqual } from 'node:util';
import type { McpEpochTool } from './epoch-tools.js';

export interface McpToolsDiff {
  /** Model-visible names (`mcp__<server>__<tool>`) that are new. */
  readonly added: readonly string[];
  /** Model-visible names that are gone. */
  readonly removed: readonly string[];
  /** Same name, different title, description, input schema, annotations or underlying tool. */
  readonly changed: readonly string[];
}

export function diffTools(
  before: readonly McpEpochTool[],
  after: readonly McpEpochTool[],
): McpToolsDiff {
  const old = new Map(before.map((tool) => [tool.name, tool]));
  const names = new Set(after.map((tool) => tool.name));
  const added: string[] = [];
  const changed: string[] = [];
  for (const tool of after) {
    const previous = old.get(tool.name);
    if (previous === undefined) added.push(tool.name);
    else if (!isDeepStrictEqual(shape(previous), shape(tool))) changed.push(tool.name);
  }
  const removed = before.map((tool) => tool.name).filter((name) => !names.has(name));
  return { added, removed, changed };
}

export function isEmptyDiff(diff: McpToolsDiff): boolean {
  return diff.added.length + diff.removed.length + diff.changed.length === 0;
}

// Key order inside schemas does not matter to isDeepStrictEqual, so a server that reorders its
// JSON between runs is not "changed".
function shape(tool: McpEpochTool): object {
  const { title, description, inputSchema, annotations, target } = tool;
  return { title, description, inputSchema, annotations, target };
}
