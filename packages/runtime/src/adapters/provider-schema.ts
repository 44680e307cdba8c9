// A tool's input schema as a model provider takes it: the server's schema with every `$schema`
// left out (some gateways refuse a request that names a draft) and `type: "object"` at its root,
// which every provider's tool type demands. Nothing else changes: OpenAI's strict mode has a
// transform of its own (openai-strict-schema.ts), asked for by the host.
import type { JsonSchema } from '@epoch-agent/protocol';
import { mapSubschemas } from './schema-walk.js';

/** The root of a tool's input schema, as every provider's tool type has it. */
export type ObjectSchema = { type: 'object'; [key: string]: unknown };

export function providerSchema(schema: JsonSchema): ObjectSchema {
  return { ...withoutSchemaKeyword(schema), type: 'object' };
}

/** `schema` and each of its subschemas without `$schema` (an embedded `$defs` entry may have one). */
export function withoutSchemaKeyword(schema: JsonSchema): { [key: string]: unknown } {
  const { $schema: _dropped, ...rest } = schema;
  return mapSubschemas(rest, (subschema) => withoutSchemaKeyword(subschema));
}
