// What changed between two versions of one server's tools (or any group of tools), as the model
// sees them: by model-visible name, so the diff also covers the resource tool pair appearing or
// going and a rename forced by a name collision. "Changed" is anything a model or the permission
// system reads off a tool.
import { isDeepStrictEqual } from 'node:util';
import type { EpochTool } from '@epoch-agent/protocol';

export interface McpToolsDiff {
  /** Model-visible names (`mcp__<server>__<tool>`, or a host tool's name) that are new. */
  readonly added: readonly string[];
  /** Model-visible names that are gone. */
  readonly removed: readonly string[];
  /**
   * Same name, different title, description, input schema, annotations, trust in them, or
   * underlying tool (an MCP tool's server, source or raw name).
   */
  readonly changed: readonly string[];
}

export function diffTools(before: readonly EpochTool[], after: readonly EpochTool[]): McpToolsDiff {
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
function shape(tool: EpochTool): object {
  const { title, description, inputSchema, annotations, annotationsTrusted, server, source } = tool;
  const target = 'target' in tool ? tool.target : undefined;
  return {
    title,
    description,
    inputSchema,
    annotations,
    annotationsTrusted,
    server,
    source,
    target,
  };
}
