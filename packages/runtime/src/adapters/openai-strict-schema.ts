// OpenAI's strict mode (`strict: true` on a function tool) makes the model's arguments always match
// the schema, for a subset of JSON Schema only. This is the opt-in transform into that subset:
// every object closed (`additionalProperties: false`) with every property required, an optional
// property made nullable instead (the model sends `null` for "left out", which
// `withoutOptionalNulls` turns back into absent before the server sees the arguments), `oneOf` as
// `anyOf`, and the keywords strict mode rejects that only narrow a value (`default`,
// `minLength`, …) left out: the server still checks them. A schema whose shape strict mode cannot
// say (a free-form object, `allOf`, `not`, a conditional, …) is not made strict: the tool is
// then sent with `strict: false` and its schema as it is, and the reason says which keyword.
import type { JsonSchema } from '@epoch-agent/protocol';
import { followRefs, isSchema } from '../tools/schema-ref.js';
import { type ObjectSchema, providerSchema } from './provider-schema.js';
import { mapSubschemas } from './schema-walk.js';

export type OpenAIStrictSchema =
  | { readonly kind: 'strict'; readonly schema: ObjectSchema }
  | { readonly kind: 'not_strict'; readonly reason: string };

/** Kept as they are: what strict mode supports (OpenAI's "supported schemas"). */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** Keywords that shape what is valid in a way strict mode cannot say: the tool stays non-strict. */
const REFUSED = new Set([
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependentRequired',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'prefixItems',
  'additionalItems',
  '$dynamicRef',
  '$recursiveRef',
]);

/** The string formats strict mode takes; another one is left out (the server checks it). */
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

class NotStrict {
  constructor(readonly reason: string) {}
}

export function openAIStrictSchema(inputSchema: JsonSchema): OpenAIStrictSchema {
  try {
    const root = providerSchema(inputSchema);
    if ('anyOf' in root || 'oneOf' in root) {
      throw new NotStrict('its root is a union (anyOf/oneOf), and strict mode needs one object');
    }
    return { kind: 'strict', schema: { ...strictNode(root, '#'), type: 'object' } };
  } catch (error) {
    if (error instanceof NotStrict) return { kind: 'not_strict', reason: error.reason };
    throw error;
  }
}

function strictNode(schema: JsonSchema, at: string): { [key: string]: unknown } {
  const node: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (REFUSED.has(key))
      throw new NotStrict(`${at} uses "${key}", which strict mode does not take`);
    if (key === 'oneOf') node.anyOf = value;
    else if (key === 'format') {
      if (typeof value === 'string' && FORMATS.has(value)) node.format = value;
    } else if (KEPT.has(key)) node[key] = value;
  }
  const types = typeList(node.type);
  const isObject = types.includes('object') || 'properties' in node;
  if (
    node.type === undefined &&
    !('anyOf' in node || '$ref' in node || 'enum' in node || 'const' in node)
  ) {
    throw new NotStrict(`${at} has no "type", and strict mode needs one`);
  }
  if (isObject) closeObject(node, at);
  const strict = mapSubschemas(node, (subschema, where) => strictNode(subschema, `${at}/${where}`));
  if (isObject) makeOptionalNullable(strict, schema);
  return strict;
}

function closeObject(node: { [key: string]: unknown }, at: string): void {
  const { properties, additionalProperties } = node;
  if (additionalProperties !== undefined && additionalProperties !== false) {
    throw new NotStrict(`${at} allows properties it does not name, which strict mode cannot say`);
  }
  if (!isSchema(properties)) {
    throw new NotStrict(`${at} is an object with no "properties", which strict mode cannot say`);
  }
  node.additionalProperties = false;
}

// Strict mode wants every property in `required`; one the schema leaves optional may be null.
function makeOptionalNullable(node: { [key: string]: unknown }, original: JsonSchema): void {
  const properties = node.properties as { [name: string]: unknown };
  const required = new Set(Array.isArray(original.required) ? original.required : []);
  for (const [name, property] of Object.entries(properties)) {
    if (!required.has(name) && isSchema(property)) properties[name] = nullable(property);
  }
  node.required = Object.keys(properties);
}

function nullable(schema: JsonSchema): JsonSchema {
  const types = typeList(schema.type);
  if (types.length === 0) {
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
    if (branches !== undefined && !('$ref' in schema)) {
      return { ...schema, anyOf: [...branches, { type: 'null' }] };
    }
    return { anyOf: [schema, { type: 'null' }] };
  }
  const withNull: { [key: string]: unknown } = {
    ...schema,
    type: types.includes('null') ? types : [...types, 'null'],
  };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null))
    withNull.enum = [...schema.enum, null];
  if ('const' in schema) {
    delete withNull.const;
    withNull.enum = [schema.const, null];
  }
  return withNull;
}

function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The arguments a model sent for a tool made strict, as the tool's own schema wants them: a
 * `null` it sent for a property that schema leaves optional is left out, in nested objects and
 * arrays too. A null the schema asks for (a required property) is kept.
 */
export function withoutOptionalNulls(value: unknown, inputSchema: JsonSchema): unknown {
  return strip(value, inputSchema, inputSchema);
}

function strip(value: unknown, node: JsonSchema, root: JsonSchema): unknown {
  const followed = followRefs(root, node);
  if (followed.kind !== 'schema') return value;
  const schema = followed.schema;
  if (Array.isArray(value)) {
    const items = schema.items;
    return isSchema(items) ? value.map((item) => strip(item, items, root)) : value;
  }
  if (!isSchema(value) || !isSchema(schema.properties)) return value;
  const properties = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const kept: { [key: string]: unknown } = {};
  for (const [name, item] of Object.entries(value)) {
    if (item === null && !required.has(name)) continue;
    const property = properties[name];
    kept[name] = isSchema(property) ? strip(item, property, root) : item;
  }
  return kept;
}
