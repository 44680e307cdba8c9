// How big a new server's entry may be, for every front end that adds one (the connectors page's
// POST /api/mcp, `epoch mcp add`, `epoch mcp add-json`). Without a bound a 50 MB body went into
// mcp.json, and every later load of that file read it again. A real entry is a few hundred bytes; a
// long token in a header or env value a few KiB: the bounds are far above both.
import { formatPath, type PathSegment } from '@epoch-agent/infra';

export const ENTRY_LIMITS = {
  /** The whole entry as written, and the page's request body that carries it. */
  entryBytes: 1024 * 1024,
  /** Any one string in it: a key, the command, one argument, one env or header value. */
  fieldBytes: 64 * 1024,
  /** Objects and lists within it: an entry needs two (env, its values); the loader allows 64 in all. */
  depth: 32,
} as const;

/** `1 MiB (1048576 bytes)`: the bound as a message says it. */
export function sizeText(bytes: number): string {
  const unit = bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
  return `${unit} (${bytes} bytes)`;
}

export interface EntryOverLimit {
  /**
   * Where it is: the field's path (`servers.x.args[0]`), the object holding a key that is too
   * long, or `servers.x` when the entry as a whole is too big. `servers` for the name itself.
   */
  readonly path: string;
  /** What is too big and the bound, never the value (it can be a secret). */
  readonly message: string;
}

/**
 * The first string of the new server over the field bound or its first object nested too deep,
 * else the entry when it is over its own bound.
 */
export function entryOverLimit(
  name: string,
  entry: { readonly [field: string]: unknown },
): EntryOverLimit | undefined {
  const field = sizeText(ENTRY_LIMITS.fieldBytes);
  const nameBytes = Buffer.byteLength(name);
  if (nameBytes > ENTRY_LIMITS.fieldBytes) {
    return {
      path: 'servers',
      message: `the server name is ${nameBytes} bytes; a name may be at most ${field}.`,
    };
  }
  const over = firstOverLimit(entry, ['servers', name]);
  if (over !== undefined) {
    const path = formatPath(over.path);
    if (over.kind === 'deep') {
      return {
        path,
        message: `${path} nests more than ${ENTRY_LIMITS.depth} levels deep; a server's entry needs a few.`,
      };
    }
    const what = over.kind === 'key' ? `a key in ${path}` : path;
    return {
      path,
      message: `${what} is ${over.bytes} bytes; one field may hold at most ${field}.`,
    };
  }
  const entryBytes = Buffer.byteLength(JSON.stringify(entry));
  if (entryBytes <= ENTRY_LIMITS.entryBytes) return undefined;
  return {
    path: formatPath(['servers', name]),
    message: `the entry is ${entryBytes} bytes as JSON; a server's entry may be at most ${sizeText(ENTRY_LIMITS.entryBytes)}.`,
  };
}

type OverLimit =
  /** A string at `path`, or (`key`) a key of the object at `path`, longer than the field bound. */
  | {
      readonly kind: 'value' | 'key';
      readonly path: readonly PathSegment[];
      readonly bytes: number;
    }
  /** The object or list at `path` is deeper than the depth bound. */
  | { readonly kind: 'deep'; readonly path: readonly PathSegment[] };

/**
 * The first place, depth first, where `entry` is over a bound. A loop over a stack, not
 * recursion: the entry comes from JSON.parse, which takes nesting deep enough to overflow ours.
 */
function firstOverLimit(entry: unknown, at: readonly PathSegment[]): OverLimit | undefined {
  const stack: { value: unknown; path: readonly PathSegment[] }[] = [{ value: entry, path: at }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      const bytes = Buffer.byteLength(value);
      if (bytes > ENTRY_LIMITS.fieldBytes) return { kind: 'value', path, bytes };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length - at.length >= ENTRY_LIMITS.depth) return { kind: 'deep', path };
    const members: [PathSegment, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key] of members) {
      const bytes = typeof key === 'string' ? Buffer.byteLength(key) : 0;
      if (bytes > ENTRY_LIMITS.fieldBytes) return { kind: 'key', path, bytes };
    }
    // Reversed: the stack pops them in their own order.
    for (const [key, item] of members.reverse()) stack.push({ value: item, path: [...path, key] });
  }
  return undefined;
}
