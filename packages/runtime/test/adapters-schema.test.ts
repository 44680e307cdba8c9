// The schema transforms on their own: `$schema` out of every subschema but never out of data (a
// property named "$schema", an enum value), and OpenAI's strict transform on the keywords it
// changes, drops or refuses.
import { openAIStrictSchema, providerSchema } from '@epoch-agent/runtime/adapters';
import { expect, it } from 'vitest';

it('$schema leaves every subschema, and a property named "$schema" stays', () => {
  const schema = providerSchema({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    properties: {
      $schema: { type: 'string', enum: ['$schema'] },
      nested: { $ref: '#/$defs/inner' },
    },
    $defs: { inner: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } },
  });
  expect(schema).toEqual({
    type: 'object',
    properties: {
      $schema: { type: 'string', enum: ['$schema'] },
      nested: { $ref: '#/$defs/inner' },
    },
    $defs: { inner: { type: 'object' } },
  });
});

it('strict: oneOf becomes anyOf, an optional $ref may be null, narrowing keywords are dropped', () => {
  const strict = openAIStrictSchema({
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, default: 'x', format: 'uri' },
      kind: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      where: { $ref: '#/$defs/place' },
    },
    required: ['name', 'kind'],
    $defs: {
      place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  });
  expect(strict).toEqual({
    kind: 'strict',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        kind: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        where: { anyOf: [{ $ref: '#/$defs/place' }, { type: 'null' }] },
      },
      required: ['name', 'kind', 'where'],
      $defs: {
        place: {
          type: 'object',
          additionalProperties: false,
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    },
  });
});

it('strict: a shape strict mode cannot say is refused with the keyword and where it is', () => {
  expect(
    openAIStrictSchema({ type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } }),
  ).toEqual({
    kind: 'not_strict',
    reason: '#/properties/a uses "allOf", which strict mode does not take',
  });
  expect(
    openAIStrictSchema({
      type: 'object',
      properties: { map: { type: 'object', additionalProperties: { type: 'string' } } },
    }),
  ).toMatchObject({
    kind: 'not_strict',
    reason: expect.stringContaining('#/properties/map allows properties'),
  });
});
