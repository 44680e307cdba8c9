// A tool as the page shows it: the name the model is given, its parameters read from its input
// schema, and what its definition costs in the model's context.
//
// The cost is an estimate on purpose (the runtime's estimateToolTokens, as the tool budget counts):
// every provider tokenizes differently and wraps tool definitions in its own way, and the estimate
// is close enough to tell a 200-token server from a 20,000-token one, which is the decision the
// number is for (a server whose tool list eats the context is worth turning off).
import { estimateToolTokens, type McpEpochTool } from '@epoch-agent/runtime';
import type { ParameterView, ToolView } from './api-types.js';

/** `name`: the one the model is given; `onDemand`: found through mcp_search_tools. */
export function toolView(name: string, tool: McpEpochTool, onDemand: boolean): ToolView {
  return {
    name,
    serverName: tool.target.kind === 'tool' ? tool.target.name : tool.target.kind,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    annotations: tool.annotations,
    parameters: parameters(tool.inputSchema),
    onDemand,
    contextTokens: estimateToolTokens({ ...tool, name }),
  };
}

type Schema = { readonly [key: string]: unknown };

function parameters(schema: Schema): ParameterView[] {
  const properties = asSchema(schema.properties);
  if (properties === undefined) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties).map(([name, value]) => {
    const property = asSchema(value) ?? {};
    const description = typeof property.description === 'string' ? property.description : undefined;
    return {
      name,
      type: typeOf(property),
      required: required.has(name),
      ...(description === undefined ? {} : { description }),
    };
  });
}

/** The type as a person reads it; `any` where the schema does not say. */
function typeOf(schema: Schema, depth = 0): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && depth < 3) {
    return variants.map((v) => typeOf(asSchema(v) ?? {}, depth + 1)).join(' | ');
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const named = types.filter((t): t is string => typeof t === 'string');
  if (named.length === 0) return 'any';
  return named
    .map((t) => {
      const items = asSchema(schema.items);
      if (t !== 'array' || items === undefined || depth >= 3) return t;
      const item = typeOf(items, depth + 1);
      return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
    })
    .join(' | ');
}

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Schema)
    : undefined;
}
