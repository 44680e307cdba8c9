// `x-mcp-header` on Streamable HTTP in the 2026 era (SEP-2243): a tool may mark properties of its
// inputSchema whose values a call also carries as `Mcp-Param-{name}` HTTP headers, so that a
// gateway can route on them without reading the body. This module reads those marks — and refuses
// a tool whose marks break the spec's rules, saying why, since such a tool must not be offered —
// and builds the headers of one call. (`Mcp-Method` and `Mcp-Name` are the SDK transport's: it
// derives them from every request's body.)

/** One marked property: where it is in the arguments, and the `{name}` of its header. */
export interface ParamHeader {
  /** The chain of `properties` keys from the schema root to the property. */
  readonly path: readonly string[];
  readonly name: string;
}

export type ParamHeaderScan =
  | { readonly ok: true; readonly headers: readonly ParamHeader[] }
  | { readonly ok: false; readonly reason: string };

const MARK = 'x-mcp-header';
const PREFIX = 'Mcp-Param-';
/** An HTTP field name (RFC 9110 `token`): no space, no control character, no delimiter. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types a header can carry plainly; `number` is excluded by the spec (no float in a header). */
const MIRRORED_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * Keywords whose subschemas are not reached from the root through `properties` alone: a mark there
 * has no one value per call to mirror (an array item, one branch of a union, a `$ref` target), so
 * the spec makes the whole tool invalid. Each maps to how it holds its subschemas.
 */
const OTHER_SUBSCHEMAS: ReadonlyMap<string, 'one' | 'list' | 'map'> = new Map([
  ['items', 'one'],
  ['prefixItems', 'list'],
  ['contains', 'one'],
  ['additionalProperties', 'one'],
  ['unevaluatedProperties', 'one'],
  ['unevaluatedItems', 'one'],
  ['propertyNames', 'one'],
  ['patternProperties', 'map'],
  ['dependentSchemas', 'map'],
  ['allOf', 'list'],
  ['anyOf', 'list'],
  ['oneOf', 'list'],
  ['not', 'one'],
  ['if', 'one'],
  ['then', 'one'],
  ['else', 'one'],
  ['$defs', 'map'],
  ['definitions', 'map'],
]);

/** Every mark of a tool's inputSchema, or why the tool is invalid (the first rule it breaks). */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, ParamHeader>();
  const visit = (
    node: unknown,
    path: readonly string[],
    reachable: boolean,
  ): string | undefined => {
    if (!isRecord(node)) return undefined;
    if (MARK in node) {
      const where = path.length === 0 ? 'the schema root' : `property "${path.join('.')}"`;
      if (!reachable || path.length === 0) {
        return `${MARK} on ${where} is not reached from the root through "properties" alone`;
      }
      const name = node[MARK];
      if (typeof name !== 'string' || name === '') {
        return `${MARK} of ${where} is ${name === '' ? 'empty' : 'not a string'}`;
      }
      if (!TOKEN.test(name)) {
        return `${MARK} "${name}" of ${where} is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
      }
      if (typeof node.type !== 'string' || !MIRRORED_TYPES.has(node.type)) {
        return `${MARK} "${name}" is on ${where} of type ${JSON.stringify(node.type ?? null)}; only string, integer and boolean properties may be mirrored`;
      }
      const twin = seen.get(name.toLowerCase());
      if (twin !== undefined) {
        return `${MARK} "${name}" of ${where} repeats "${twin.name}" of property "${twin.path.join('.')}" (header names ignore case)`;
      }
      const header = { path, name };
      seen.set(name.toLowerCase(), header);
      headers.push(header);
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const [keyword, shape] of OTHER_SUBSCHEMAS) {
      for (const child of subschemas(node[keyword], shape)) {
        const fault = visit(child, [...path, keyword], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { ok: true, headers } : { ok: false, reason: fault };
}

/**
 * The `Mcp-Param-*` headers of one call. A property without a value (absent or null) has no
 * header; nor has one whose value is not a string, a safe integer or a boolean: a header it could
 * not carry faithfully is left to the server to notice, rather than sent wrong.
 */
export function paramHeaders(
  headers: readonly ParamHeader[],
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, name } of headers) {
    const text = headerText(valueAt(args, path));
    if (text !== undefined) out[`${PREFIX}${name}`] = encodeValue(text);
  }
  return out;
}

/**
 * A value as a header carries it: as it is when it is visible ASCII (spaces and tabs inside), else
 * `=?base64?{UTF-8 in base64}?=`. Also base64: an empty value (proxies drop empty headers, and a
 * missing header reads as a mismatch), one with leading or trailing whitespace (header parsing
 * strips it), and one that already looks like the base64 form.
 */
export function encodeValue(text: string): string {
  const plain =
    text !== '' &&
    text === text.trim() &&
    !(text.startsWith('=?base64?') && text.endsWith('?=')) &&
    /^[\t\x20-\x7e]*$/.test(text);
  return plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

function subschemas(value: unknown, shape: 'one' | 'list' | 'map'): unknown[] {
  if (value === undefined) return [];
  if (shape === 'list') return Array.isArray(value) ? value : [];
  if (shape === 'map') return isRecord(value) ? Object.values(value) : [];
  // `items` as a list is the older form of `prefixItems`.
  return Array.isArray(value) ? value : [value];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
