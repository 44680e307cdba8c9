// What a front end can say about a new server, its text in the file, and the fields it leaves for
// the user to write by hand. The connectors page says three things (transport, command or URL, env);
// `epoch mcp add` also takes headers; `epoch mcp add-json` gives a whole entry, checked by the
// loader like any hand-written one.
import type { McpTransportKind } from '@epoch-agent/plugin-mcp';
import { MCP_CONFIG_FIELDS } from '@epoch-agent/plugin-mcp/config';
import type { RenderMember } from './insert-member.js';

/** A new server: one shape per transport, or a whole entry as JSON. */
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
      /** Values are secrets: they go into the file and nowhere else. */
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      readonly name: string;
      /** An entry of `servers` as a person would write it, any field in either spelling. */
      readonly entry: { readonly [field: string]: unknown };
    };

// Other ways of saying the transport, which the new entry has already said (or left to the url
// rule on purpose), so they are not left to the user either.
const TRANSPORT_FIELDS = new Set(['transport', 'type', 'streamable']);

/** The entry's fields, in the order they are written. */
export function entryOf(server: AddServerInput): { readonly [field: string]: unknown } {
  if ('entry' in server) return server.entry;
  if (server.transport !== 'stdio') {
    const { transport, url, headers = {} } = server;
    return { transport, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  }
  const { transport, command, args = [], env = {} } = server;
  return {
    transport,
    command,
    ...(args.length > 0 ? { args } : {}),
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

/**
 * The fields of a server of this transport that `entry` does not set (timeouts, headers, cwd, …),
 * in the order of the plugin's field table: what the user adds by hand afterwards.
 */
export function fieldsToSetByHand(
  transport: McpTransportKind,
  entry: { readonly [field: string]: unknown },
): readonly string[] {
  const written = new Set(Object.keys(entry));
  return MCP_CONFIG_FIELDS.filter(
    (field) =>
      field.transports.includes(transport) &&
      !TRANSPORT_FIELDS.has(field.name) &&
      !written.has(field.name) &&
      !written.has(field.camelCase),
  ).map((field) => field.name);
}

/** The member `"<name>": { … }`, laid out where it goes; each field on a line of its own. */
export function renderServer(
  name: string,
  entry: { readonly [field: string]: unknown },
): RenderMember {
  const fields = Object.entries(entry).map(
    ([field, value]) => `${JSON.stringify(field)}: ${inlineJson(value)}`,
  );
  const key = JSON.stringify(name);
  return (layout) => {
    if (layout.inline) return `${key}: { ${fields.join(', ')} }`;
    const inner = layout.indent + layout.unit;
    const lines = fields.map((field) => inner + field).join(`,${layout.eol}`);
    return `${key}: {${layout.eol}${lines}${layout.eol}${layout.indent}}`;
  };
}

/**
 * JSON on one line, spaced as the README's example under "mcp.json" writes lists and env:
 * `["-y", "x"]`, `{ "K": "v" }`.
 */
function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const pairs = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`);
    return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
  }
  // undefined (a field a JSON text cannot hold) never reaches here: entries come from JSON.parse
  // or from the typed shapes above, which leave absent fields out.
  return JSON.stringify(value);
}
