// A tool's parameters as a person reads them: the top-level properties of its input schema, in
// schema order, each with its type in words (`string`, `integer[]`, `"a" | "b"`), whether it is
// required, its description, and for one defined by `$ref` where those came from or why they
// could not be found. What `epoch mcp tools` lists and the connectors page's table shows.
import type { JsonSchema } from '@epoch-agent/protocol';
import { followRefs, isSchema, refProblemText, type Schema } from './schema-ref.js';

export interface ToolParameter {
  readonly name: string;
  /** `any` where the schema does not say (or its `$ref` leads nowhere: see `problem`). */
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  /** The `$ref`s followed to find its type and description, in order; absent when it has none. */
  readonly refs?: readonly string[];
  /** Why its `$ref` leads to no schema, in words (the refs in it are the server's text). */
  readonly problem?: string;
}

export function toolParameters(inputSchema: JsonSchema): ToolParameter[] {
  const properties = inputSchema.properties;
  if (!isSchema(properties)) return [];
  const required = new Set(Array.isArray(inputSchema.required) ? inputSchema.required : []);
  return Object.entries(properties).map(([name, value]) => {
    const followed = followRefs(inputSchema, isSchema(value) ? value : {});
    const schema = followed.kind === 'schema' ? followed.schema : {};
    const { description } = schema;
    return {
      name,
      type: typeOf(inputSchema, schema),
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      ...(followed.refs.length > 0 ? { refs: followed.refs } : {}),
      ...(followed.kind === 'unresolved' ? { problem: refProblemText(followed) } : {}),
    };
  });
}

// How deep the words for a type go (`string[][]`, a union inside a union) before saying less.
const MAX_DEPTH = 3;

/** The type of `schema` (a subschema of `root`, its refs followed) as a person reads it. */
function typeOf(root: Schema, schema: Schema, depth = 0): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && depth < MAX_DEPTH) {
    return variants.map((v) => typeOf(root, nested(root, v), depth + 1)).join(' | ');
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const named = types.filter((t): t is string => typeof t === 'string');
  if (named.length === 0) return 'any';
  return named
    .map((t) => {
      if (t !== 'array' || schema.items === undefined || depth >= MAX_DEPTH) return t;
      const item = typeOf(root, nested(root, schema.items), depth + 1);
      return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
    })
    .join(' | ');
}

/** A subschema inside a parameter's (an item, a variant), its refs followed; `{}` when they fail. */
function nested(root: Schema, value: unknown): Schema {
  const followed = followRefs(root, isSchema(value) ? value : {});
  return followed.kind === 'schema' ? followed.schema : {};
}
