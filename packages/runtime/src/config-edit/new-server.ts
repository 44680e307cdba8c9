// What the connectors page can say about a new server — transport, command or URL, env — its text
// in the file, and the fields it leaves for the user to write by hand.
import { MCP_CONFIG_FIELDS, type McpTransportKind } from '@epoch-agent/plugin-mcp';
import type { RenderMember } from './insert-member.js';

/** A server as the connectors page gives it: one shape per transport. */
export type AddServerInput =
  | {
      readonly name: string;
      readonly transport: 'stdio';
      /** The program, resolved from PATH (never through a shell). */
      readonly command: string;
      readonly args?: readonly string[];
      /** Values are secrets: they go into the file and nowhere else. */
      readonly env?: Readonly<Record<string, string>>;
    }
  | {
      readonly name: string;
      readonly transport: 'sse' | 'http';
      readonly url: string;
    };

/**
 * Stricter than a hand-written file: the name goes verbatim into tool names
 * (`mcp__<server>__<tool>`) that are sent to model providers, and they refuse anything else.
 */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

// The fields addServer writes. `type` and `streamable` are other ways of saying the transport, which
// the page has already said, so they are not left to the user either.
const WRITTEN = new Set(['transport', 'type', 'streamable', 'command', 'args', 'env', 'url']);

/**
 * The fields of a server of this transport that addServer does not write (timeouts, headers, cwd,
 * …), in the order of the plugin's field table: what the user adds by hand afterwards.
 */
export function fieldsToSetByHand(transport: McpTransportKind): readonly string[] {
  return MCP_CONFIG_FIELDS.filter(
    (field) => field.transports.includes(transport) && !WRITTEN.has(field.name),
  ).map((field) => field.name);
}

/** The entry `"<name>": { … }`, laid out where it goes. */
export function renderServer(server: AddServerInput): RenderMember {
  const fields = fieldsOf(server);
  const key = JSON.stringify(server.name);
  return (layout) => {
    if (layout.inline) return `${key}: { ${fields.join(', ')} }`;
    const inner = layout.indent + layout.unit;
    const lines = fields.map((field) => inner + field).join(`,${layout.eol}`);
    return `${key}: {${layout.eol}${lines}${layout.eol}${layout.indent}}`;
  };
}

/** `"field": value` pieces; lists and env on one line each, as the seed's example writes them. */
function fieldsOf(server: AddServerInput): string[] {
  const field = (name: string, value: string) => `${JSON.stringify(name)}: ${value}`;
  const out = [field('transport', JSON.stringify(server.transport))];
  if (server.transport !== 'stdio') return [...out, field('url', JSON.stringify(server.url))];
  out.push(field('command', JSON.stringify(server.command)));
  const args = server.args ?? [];
  if (args.length > 0)
    out.push(field('args', `[${args.map((a) => JSON.stringify(a)).join(', ')}]`));
  const env = Object.entries(server.env ?? {});
  if (env.length > 0) {
    const pairs = env.map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`);
    out.push(field('env', `{ ${pairs.join(', ')} }`));
  }
  return out;
}
