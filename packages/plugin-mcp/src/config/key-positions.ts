// Where each entry of an mcp.json's `servers` and `overrides` is written, and the key of each of
// its fields: what is said about an entry after it is loaded (a name the runtime refuses, where
// each field of a server comes from in `epoch mcp get`) points into the text without reading the
// file a second time, which could have changed in between.
import type { Position } from '@epoch-agent/infra';
import type { Locator } from './locate.js';
import { type Property, propertiesOf } from './properties.js';

/** Where an entry's key is, and the key of each field it writes. */
export interface McpKeyPositions {
  readonly key: Position;
  /**
   * By the key as written (`connectTimeout`, `type`), both spellings when both are; of a key
   * given twice, the later one, whose value is the one used.
   */
  readonly fields: ReadonlyMap<string, Position>;
}

/**
 * Every entry a file writes, loaded or not (a diagnostic says why one did not), by its key; of a
 * key given twice, the later one, the entry that is read.
 */
export interface McpConfigPositions {
  readonly servers: ReadonlyMap<string, McpKeyPositions>;
  readonly overrides: ReadonlyMap<string, McpKeyPositions>;
}

/**
 * Of the entries the loader read (one per key); undefined when there are none, so a file that
 * writes no entry loads as nothing at all.
 */
export function configPositions(
  servers: readonly Property[],
  overrides: readonly Property[],
  locator: Locator,
): McpConfigPositions | undefined {
  if (servers.length === 0 && overrides.length === 0) return undefined;
  return { servers: keyPositions(servers, locator), overrides: keyPositions(overrides, locator) };
}

// An entry that is not an object writes no fields.
function keyPositions(
  entries: readonly Property[],
  locator: Locator,
): ReadonlyMap<string, McpKeyPositions> {
  const at = ({ keyNode }: Property) => locator.offset(keyNode.offset);
  return new Map(
    entries.map((entry) => {
      const fields = entry.value.type === 'object' ? propertiesOf(entry.value) : [];
      // A Map keeps the last of a key set twice.
      return [entry.key, { key: at(entry), fields: new Map(fields.map((f) => [f.key, at(f)])) }];
    }),
  );
}
