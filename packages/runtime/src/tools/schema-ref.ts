// A `$ref` in a tool's input schema, followed to what it names inside that same schema: for what a
// person is shown of a parameter (`epoch mcp tools`, the connectors page), how `epoch mcp call
// --arg` types a value, and the fields of the page's "Try" form, which imports this module alone
// (`@epoch-agent/runtime/schema-ref`: it runs in the browser, so it imports nothing). The schema
// itself is never changed: the model and the server get it as the server wrote it.
//
// A ref names a place in the schema by JSON Pointer (`#/$defs/x`, the older `#/definitions/x`,
// with `~1` for "/", `~0` for "~" and percent-escapes) or by anchor (`#x`, from `$anchor` or
// `$dynamicAnchor`), alone or after the schema's own `$id`. A ref to any other document
// (`https://...`, `other.json#/x`) is reported and never fetched: reading a tool list must not
// make the client contact an address a server chose. Chains are followed; one that comes back to
// a schema it passed is a cycle. Subschemas with an `$id` of their own are searched as part of the
// one document, except for anchors, which belong to the resource that declares them.

/** A JSON Schema object, as a tool's input schema and its subschemas are. */
export type Schema = { readonly [key: string]: unknown };

/** Why a `$ref` leads to no schema. */
export type RefProblemCode =
  /** It names no place in the schema. */
  | 'missing'
  /** Following it comes back to a schema already passed. */
  | 'cycle'
  /** It names another document, which is never fetched. */
  | 'remote';

export type FollowedRef =
  | {
      readonly kind: 'schema';
      /**
       * `node` with what its refs lead to: the nearest schema's keywords win, so a description
       * written beside a `$ref` is the one shown. `$ref` itself is left out.
       */
      readonly schema: Schema;
      /** The refs followed, in order; empty when `node` has none. */
      readonly refs: readonly string[];
    }
  | {
      readonly kind: 'unresolved';
      readonly code: RefProblemCode;
      /** The ref that leads nowhere (for a cycle, the one that closes it). */
      readonly ref: string;
      /** The refs followed up to and including `ref`. */
      readonly refs: readonly string[];
    };

/** `node` (a subschema of `root`) with its `$ref`, and theirs, followed within `root`. */
export function followRefs(root: Schema, node: Schema): FollowedRef {
  const chain: Schema[] = [node];
  const refs: string[] = [];
  const passed = new Set<Schema>([node]);
  for (let at = node; typeof at.$ref === 'string'; ) {
    const ref = at.$ref;
    refs.push(ref);
    const target = refTarget(root, ref);
    if (typeof target === 'string') return { kind: 'unresolved', code: target, ref, refs };
    if (passed.has(target)) return { kind: 'unresolved', code: 'cycle', ref, refs };
    passed.add(target);
    chain.push(target);
    at = target;
  }
  // From the far end back: each nearer schema's own keywords over what it refers to.
  const { $ref: _followed, ...schema }: Schema = Object.assign({}, ...chain.toReversed());
  return { kind: 'schema', schema, refs };
}

/** What a FollowedRef that went nowhere means, in words; its refs are the server's text. */
export function refProblemText(followed: Extract<FollowedRef, { kind: 'unresolved' }>): string {
  switch (followed.code) {
    case 'missing':
      return `$ref "${followed.ref}" names nothing in the tool's input schema`;
    case 'cycle':
      return `its $refs go round in a circle (${followed.refs.join(' → ')})`;
    case 'remote':
      return `$ref "${followed.ref}" is in another document, which is never fetched`;
  }
}

function refTarget(root: Schema, ref: string): Schema | 'missing' | 'remote' {
  const hash = ref.indexOf('#');
  const document = hash === -1 ? ref : ref.slice(0, hash);
  if (document !== '' && document !== root.$id) return 'remote';
  let fragment: string;
  try {
    fragment = decodeURIComponent(hash === -1 ? '' : ref.slice(hash + 1));
  } catch {
    return 'missing';
  }
  const found =
    fragment === '' || fragment.startsWith('/')
      ? pointed(root, fragment)
      : anchored(root, fragment);
  return found ?? 'missing';
}

/** RFC 6901: `/a~1b/0` is key "a/b", then index 0. */
function pointed(root: Schema, pointer: string): Schema | undefined {
  let at: unknown = root;
  for (const token of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(key)) at = at[Number(key)];
    else if (isSchema(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return asSchema(at);
}

// Keywords whose values are data, not schemas: an `$anchor` key inside them declares nothing.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The subschema that declares anchor `name` in `root`'s own resource. Searched with a stack, not
 * recursion: a server's schema may nest deeper than the call stack goes.
 */
function anchored(root: Schema, name: string): Schema | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const at = stack.pop();
    if (Array.isArray(at)) {
      // One by one: spreading a long array into push() would pass it as that many arguments.
      for (const item of at) stack.push(item);
      continue;
    }
    if (!isSchema(at) || (at !== root && typeof at.$id === 'string')) continue;
    if (at.$anchor === name || at.$dynamicAnchor === name) return at;
    for (const [key, value] of Object.entries(at)) {
      if (!DATA_KEYWORDS.has(key)) stack.push(value);
    }
  }
  return undefined;
}

// A boolean is a schema too: `true` allows anything, `false` nothing.
function asSchema(value: unknown): Schema | undefined {
  if (value === true) return {};
  if (value === false) return { not: {} };
  return isSchema(value) ? value : undefined;
}

/** A JSON object: what a schema is, booleans aside. */
export function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
