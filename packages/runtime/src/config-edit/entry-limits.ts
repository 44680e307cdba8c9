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

/** The first string of the new server over the field bound, else the entry when it is over its own. */
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
  const long = firstLongString(entry, ['servers', name]);
  if (long !== undefined) {
    const path = formatPath(long.path);
    const what = long.key ? `a key in ${path}` : path;
    return {
      path,
      message: `${what} is ${long.bytes} bytes; one field may hold at most ${field}.`,
    };
  }
  const entryBytes = Buffer.byteLength(JSON.stringify(entry));
  if (entryBytes <= ENTRY_LIMITS.entryBytes) return undefined;
  return {
    path: formatPath(['servers', name]),
    message: `the entry is ${entryBytes} bytes as JSON; a server's entry may be at most ${sizeText(ENTRY_LIMITS.entryBytes)}.`,
  };
}

interface LongString {
  readonly path: readonly PathSegment[];
  readonly bytes: number;
  /** A key of the object at `path`, not the value there. */
  readonly key: boolean;
}

function firstLongString(value: unknown, path: readonly PathSegment[]): LongString | undefined {
  if (typeof value === 'string') {
    const bytes = Buffer.byteLength(value);
    return bytes > ENTRY_LIMITS.fieldBytes ? { path, bytes, key: false } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const members: [PathSegment, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, item] of members) {
    const keyBytes = typeof key === 'string' ? Buffer.byteLength(key) : 0;
    if (keyBytes > ENTRY_LIMITS.fieldBytes) return { path, bytes: keyBytes, key: true };
    const long = firstLongString(item, [...path, key]);
    if (long !== undefined) return long;
  }
  return undefined;
}
