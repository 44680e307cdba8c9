// A tool whose input schema is written the way JSON Schema 2020-12 allows (and MCP 2026-07-28
// allows any of it): a `$schema`, parameters defined once under `$defs` (one with an `$anchor`) or
// the older `definitions` and referred to by `$ref`, a chain of refs, a pointer with escapes,
// `allOf`, `if` / `then` / `else` and `additionalProperties: false` — and refs that lead nowhere: a
// cycle, a pointer to nothing, and one to another document (`networkRef`), which no client may
// fetch. Served by the fixture server's `refs` catalog; tests compare what a client keeps with it.
// Plain JavaScript so the fixture server starts without a build.

/** The tool; `networkRef` is the URL of the `airline` parameter's `$ref`. */
export function refsTool(networkRef) {
  return {
    name: 'book_trip',
    title: 'Book a trip',
    description: 'Books a trip; its parameters are defined once, under $defs, and referred to.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        city: { $anchor: 'city', type: 'string', description: 'A city, as the ticket names it' },
        nights: { $ref: '#/$defs/count', description: 'Nights away' },
        count: { type: 'integer', minimum: 1 },
        'seat/class~': { type: 'string', enum: ['1', '2'] },
        party: {
          type: 'object',
          properties: { adults: { type: 'integer' }, children: { type: 'integer' } },
          additionalProperties: false,
          description: 'Who travels',
        },
        loop: { $ref: '#/$defs/round' },
        round: { $ref: '#/$defs/loop' },
      },
      definitions: { flag: { type: 'boolean', description: 'Travel insurance' } },
      properties: {
        from: { $ref: '#/$defs/city' },
        to: { $ref: '#city', description: 'Where to' },
        nights: { $ref: '#/$defs/nights' },
        class: { $ref: '#/$defs/seat~1class~0' },
        party: { $ref: '#/$defs/party' },
        insured: { $ref: '#/definitions/flag' },
        airline: { $ref: networkRef },
        circular: { $ref: '#/$defs/loop' },
        lost: { $ref: '#/$defs/nowhere' },
        note: { type: 'string' },
      },
      required: ['from', 'to'],
      allOf: [{ required: ['nights'] }],
      if: { properties: { party: { required: ['children'] } }, required: ['party'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword, never awaited.
      then: { required: ['insured'] },
      else: { not: { required: ['insured'] } },
      additionalProperties: false,
    },
  };
}
