// Where a server's key sits in an mcp.json, for diagnostics the runtime adds after the loader has
// read the file (a name the runtime refuses). The loader's own diagnostics carry their positions.
import { readFile } from 'node:fs/promises';
import type { Position } from '@epoch-agent/infra';
import { type Node, parseTree } from 'jsonc-parser';

const START: Position = { line: 1, column: 1 };

/** The line:column of `servers.<server>`'s key; 1:1 when the file or the key cannot be found. */
export async function serverKeyPosition(file: string, server: string): Promise<Position> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return START;
  }
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  const key = lastKey(lastKey(root, 'servers')?.parent?.children?.[1], server);
  return key === undefined ? START : positionOf(text, key.offset);
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
