// Where a server's key, and the keys of its fields, sit in an mcp.json: for diagnostics the runtime
// adds after the loader has read the file (a name the runtime refuses), and for showing where each
// field of a server comes from (`epoch mcp get`). The loader's own diagnostics carry their positions.
import { MAX_CONFIG_BYTES, type Position, readRegularFile } from '@epoch-agent/infra';
import { type Node, parseTree } from 'jsonc-parser';

const START: Position = { line: 1, column: 1 };

/** A server entry's key, and the key of each field it writes (as written: `connectTimeout`). */
export interface EntryPositions {
  readonly entry: Position;
  readonly fields: ReadonlyMap<string, Position>;
}

/** The line:column of `servers.<server>`'s key; 1:1 when the file or the key cannot be found. */
export async function serverKeyPosition(file: string, server: string): Promise<Position> {
  return (await entryPositions(file, server))?.entry ?? START;
}

/**
 * Where `servers.<server>` (or the user's `overrides.<server>`) and its fields are; undefined when
 * the file or the key is not there.
 */
export async function entryPositions(
  file: string,
  server: string,
  container: 'servers' | 'overrides' = 'servers',
): Promise<EntryPositions | undefined> {
  let text: string;
  try {
    text = (await readRegularFile(file, MAX_CONFIG_BYTES)).toString('utf8');
  } catch {
    return undefined;
  }
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  const key = lastKey(propertyValue(lastKey(root, container)), server);
  if (key === undefined) return undefined;
  const fields = new Map<string, Position>();
  for (const property of propertyValue(key)?.children ?? []) {
    const fieldKey = property.children?.[0];
    // Later keys win, as they do for JSON.parse and the loader.
    if (fieldKey !== undefined)
      fields.set(String(fieldKey.value), positionOf(text, fieldKey.offset));
  }
  return { entry: positionOf(text, key.offset), fields };
}

/** The value of the property whose key is `key`. */
function propertyValue(key: Node | undefined): Node | undefined {
  return key?.parent?.children?.[1];
}

// The last key of that name, like JSON.parse (and the loader) use the last of duplicate keys.
function lastKey(object: Node | undefined, name: string): Node | undefined {
  if (object?.type !== 'object') return undefined;
  return object.children
    ?.map((property) => property.children?.[0])
    .findLast((key) => key?.value === name);
}

function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line: before.split(/\r\n|\r|\n/).length, column: offset - lineStart + 1 };
}
