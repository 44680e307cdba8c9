// An object's properties in jsonc-parser's tree, each key as a string beside its node: what the
// loader reads entries from, and where their keys' positions come from.
import type { Node } from 'jsonc-parser';

export interface Property {
  readonly key: string;
  readonly keyNode: Node;
  readonly value: Node;
}

/** In file order, a key given twice included twice. */
export function propertiesOf(node: Node): Property[] {
  const out: Property[] = [];
  for (const property of node.children ?? []) {
    const [keyNode, value] = property.children ?? [];
    if (keyNode !== undefined && value !== undefined) {
      out.push({ key: String(keyNode.value), keyNode, value });
    }
  }
  return out;
}
