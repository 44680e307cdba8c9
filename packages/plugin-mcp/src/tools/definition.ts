// A tool's definition as the model sees it — name, title, description, input and output schema,
// annotations — and its hash: what is pinned when a person approves a server's tools, compared
// with every later list, and shown in a diff when it changed (README, "Pinned tools").
import { createHash } from 'node:crypto';
import type { JsonSchema } from '@epoch-agent/protocol';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from '../canonical-json.js';

/** A tool as the model sees it: what is hashed, pinned and shown in a diff. */
export interface McpToolDefinition {
  /** The server's own name for it. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: { readonly [key: string]: unknown };
}

// Bump when what is hashed changes: every pinned tool is then withheld until approved again,
// which is the safe side.
const VERSION = 'mcp-tool-definition/1';

/**
 * The definition of an MCP Tool (as it reaches the model). Icons and `_meta` are left out: the
 * model is sent neither, so a new icon is no new tool.
 */
export function toolDefinition(tool: Tool): McpToolDefinition {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  const definition: { -readonly [K in keyof McpToolDefinition]: McpToolDefinition[K] } = {
    name,
    inputSchema: inputSchema as JsonSchema,
  };
  if (title !== undefined) definition.title = title;
  if (description !== undefined) definition.description = description;
  if (outputSchema !== undefined) definition.outputSchema = outputSchema as JsonSchema;
  if (annotations !== undefined) definition.annotations = annotations;
  return definition;
}

/**
 * `sha256:<hex>` of the definition as canonical JSON (keys sorted at every depth): a server that
 * reorders its JSON keeps its hash; any other change of a value, a key or an array's order does not.
 */
export function definitionHash(definition: McpToolDefinition): string {
  const hex = createHash('sha256')
    .update(`${VERSION}\n${canonicalJson(definition)}`)
    .digest('hex');
  return `sha256:${hex}`;
}
