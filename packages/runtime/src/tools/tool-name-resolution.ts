// Which name each registered tool is offered under when two groups want the same one. Pure and
// order-free: the answer depends only on which groups hold which tools, never on the order they
// were registered in, so a restart (or servers that connect in another order) gives every tool
// the same name again — permission rules and a model's memory of a conversation rely on that.
//
// Two tools collide when their names are equal: servers `a.b` and `a_b` both give
// `mcp__a_b__<tool>`, tools `x.y` and `x_y` of two groups can meet, a server can name a tool like
// a host's built-in. The tool of the group that sorts first keeps the name: host groups (anything
// not `mcp:`) before MCP groups, so a server that appears can never rename a host's own tool; then
// by group name. Every other one is renamed with a hash of its raw identity (its group and its
// name on the server), and the collision is reported. Nothing is ever dropped or replaced.
import { createHash } from 'node:crypto';
import type { McpEpochTool } from '@epoch-agent/plugin-mcp';
import type { EpochTool } from '@epoch-agent/protocol';

/** The group the runtime keeps an MCP server's tools in. */
export function mcpGroup(server: string): string {
  return `${MCP_GROUP_PREFIX}${server}`;
}

export const MCP_GROUP_PREFIX = 'mcp:';

/** One side of a collision: a group and the tool as that group knows it. */
export interface ToolOrigin {
  readonly group: string;
  /** For an MCP tool, its raw name on the server (or `list_resources` / `read_resource`). */
  readonly tool: string;
}

/** Two tools wanted the same name; `kept` has it, `renamed` is offered as `renamed.name`. */
export interface ToolNameCollision {
  readonly code: 'tool_name_collision';
  readonly severity: 'warning';
  /** The name both wanted. */
  readonly name: string;
  readonly kept: ToolOrigin;
  readonly renamed: ToolOrigin & { readonly name: string };
  readonly message: string;
}

export interface ResolvedTool {
  readonly group: string;
  /** As registered; its `name` is the one it wanted. */
  readonly tool: EpochTool;
  /** The name it is offered under. */
  readonly name: string;
}

export interface ToolNameResolution {
  /** Groups in their fixed order, each group's tools in the order given. */
  readonly tools: readonly ResolvedTool[];
  readonly collisions: readonly ToolNameCollision[];
}

const HASH_HEX_LENGTH = 8;

/** A tool wanting its name: which group holds it, as which raw tool, and the how-manieth one. */
interface Claim {
  readonly group: string;
  readonly tool: EpochTool;
  readonly raw: string;
  /** A group that holds one raw tool twice (a server listing it twice) still gets two names. */
  readonly occurrence: number;
}

// Runs over every tool whenever a group changes (10,000 for 100 servers of 100 tools), so what
// only a collision needs (its origins, the identity that is hashed) is made only for one.
export function resolveToolNames(
  groups: ReadonlyMap<string, readonly EpochTool[]>,
  maxLength: number,
): ToolNameResolution {
  const claims: Claim[] = [];
  for (const group of [...groups.keys()].sort(compareGroups)) {
    const seen = new Map<string, number>();
    for (const tool of groups.get(group) ?? []) {
      const raw = rawName(tool);
      const occurrence = seen.get(raw) ?? 0;
      seen.set(raw, occurrence + 1);
      claims.push({ group, tool, raw, occurrence });
    }
  }

  const owners = new Map<string, Claim>();
  for (const claim of claims) {
    if (!owners.has(claim.tool.name)) owners.set(claim.tool.name, claim);
  }
  const renames = new Set<string>();
  const taken = (name: string): boolean => owners.has(name) || renames.has(name);
  const collisions: ToolNameCollision[] = [];
  const tools = claims.map((claim): ResolvedTool => {
    const { group, tool, raw, occurrence } = claim;
    const wanted = tool.name;
    const owner = owners.get(wanted);
    if (owner === undefined || owner === claim) return { group, tool, name: wanted };
    const name = freeName(wanted, `${group}\0${raw}\0${occurrence}`, taken, maxLength);
    renames.add(name);
    collisions.push(
      collision(wanted, { group: owner.group, tool: owner.raw }, { group, tool: raw, name }),
    );
    return { group, tool, name };
  });
  return { tools, collisions };
}

/** The fixed order of groups: host groups (anything not `mcp:`) first, then by name. */
export function compareGroups(a: string, b: string): number {
  const rank = (group: string) => (group.startsWith(MCP_GROUP_PREFIX) ? 1 : 0);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** An MCP server's tool (it knows its server and its raw name there), not a host's. */
export function isMcpTool(tool: EpochTool): tool is McpEpochTool {
  return 'server' in tool && 'target' in tool;
}

function rawName(tool: EpochTool): string {
  if (!isMcpTool(tool)) return tool.name;
  return tool.target.kind === 'tool' ? tool.target.name : tool.target.kind;
}

// `<wanted, cut to fit>_<8 hex of the identity's sha256>`; in the (astronomically rare) case that
// this is taken too, the hash of the identity with an attempt counter, so the result stays a pure
// function of the inputs.
function freeName(
  wanted: string,
  identity: string,
  taken: (name: string) => boolean,
  maxLength: number,
): string {
  for (let attempt = 0; ; attempt++) {
    const hash = createHash('sha256')
      .update(attempt === 0 ? identity : `${identity}\0${attempt}`, 'utf8')
      .digest('hex')
      .slice(0, HASH_HEX_LENGTH);
    const name = `${wanted.slice(0, maxLength - HASH_HEX_LENGTH - 1)}_${hash}`;
    if (!taken(name)) return name;
  }
}

function collision(
  name: string,
  kept: ToolOrigin,
  renamed: ToolOrigin & { readonly name: string },
): ToolNameCollision {
  return {
    code: 'tool_name_collision',
    severity: 'warning',
    name,
    kept,
    renamed,
    message:
      `Tool name "${name}" is wanted by tool "${kept.tool}" of group "${kept.group}" and by tool ` +
      `"${renamed.tool}" of group "${renamed.group}". "${kept.group}" keeps it; the other is offered ` +
      `as "${renamed.name}". Rename one of the servers (or tools) so their names differ after ` +
      'characters outside [a-zA-Z0-9_-] become "_".',
  };
}
