// The subschemas of a JSON Schema, by keyword, so that a transform visits schemas only: a property
// named "$schema" or "default" under `properties`, and the values of `enum`, `const`, `default`
// and `examples`, are data and are never touched.
import type { JsonSchema } from '@epoch-agent/protocol';
import { isSchema } from '../tools/schema-ref.js';

/** Keywords whose value is one subschema. */
const ONE = [
  'items',
  'additionalProperties',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
/** Keywords whose value is a list of subschemas (`items` too, in drafts before 2020-12). */
const LIST = ['anyOf', 'allOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;

const ONE_SET: ReadonlySet<string> = new Set(ONE);
const LIST_SET: ReadonlySet<string> = new Set(LIST);
const MAP_SET: ReadonlySet<string> = new Set(MAP);

/**
 * A copy of `schema` whose every direct subschema is `visit(subschema, where)`, `where` being its
 * place below `schema` as a JSON Pointer tail (`properties/name`, `anyOf/0`); the other keywords
 * are kept as they are. A boolean subschema (`true`, `false`) is kept too.
 */
export function mapSubschemas(
  schema: JsonSchema,
  visit: (subschema: JsonSchema, where: string) => JsonSchema,
): { [key: string]: unknown } {
  const copy: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE_SET.has(key) && isSchema(value)) copy[key] = visit(value, key);
    else if (LIST_SET.has(key) && Array.isArray(value)) {
      copy[key] = value.map((item, index) =>
        isSchema(item) ? visit(item, `${key}/${index}`) : item,
      );
    } else if (MAP_SET.has(key) && isSchema(value)) {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [
          name,
          isSchema(item) ? visit(item, `${key}/${name}`) : item,
        ]),
      );
    } else copy[key] = value;
  }
  return copy;
}
