// The shape of an mcp.json as a whole, checked before any of its fields is read: how deep its text
// nests, and keys given twice in any object; and the words for the kind of value a node holds.
import type { Diagnostic, PathSegment } from '@epoch-agent/infra';
import { createScanner, type Node } from 'jsonc-parser';
import { propertiesOf } from './properties.js';
import { diagnostic, type Where } from './report.js';

// The parser and every reader after it recurse once per level: thousands of levels overflow the
// stack. A real mcp.json is about 5 deep (servers, a server, env, …); 64 leaves room for any host's
// nesting and is far from the stack's limit.
export const MAX_DEPTH = 64;

/** The offset of the first `{` or `[` deeper than MAX_DEPTH (strings and comments skipped). */
export function tooDeepAt(source: string): number | undefined {
  const scanner = createScanner(source, true);
  let depth = 0;
  // A token of one character is punctuation or a stray one (a string has its quotes); the
  // SyntaxKind enum is const, so the character is what is compared. The end is the first token
  // that starts at the end of the text: the scanner's end token is not always of length 0 (after
  // an unterminated `/*` it is 1, every time), and a test of its length never ended.
  for (scanner.scan(); scanner.getTokenOffset() < source.length; scanner.scan()) {
    if (scanner.getTokenLength() !== 1) continue;
    const char = source[scanner.getTokenOffset()];
    if (char === '{' || char === '[') {
      depth += 1;
      if (depth > MAX_DEPTH) return scanner.getTokenOffset();
    } else if (char === '}' || char === ']') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

export function keysOf(node: Node): string[] {
  return [...new Set(propertiesOf(node).map((p) => p.key))];
}

/**
 * A key given twice in any object: the earlier one is ignored, so the warning points at it and
 * names the one that is used. Each object is read twice over, never once per key: an object of
 * 100,000 keys costs 200,000 steps, not their square.
 */
export function duplicateKeys(root: Node, where: Where): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visit = (node: Node, path: readonly PathSegment[]): void => {
    if (node.type === 'array') {
      node.children?.forEach((item, index) => {
        visit(item, [...path, index]);
      });
    }
    if (node.type !== 'object') return;
    const properties = propertiesOf(node);
    const used = new Map(properties.map((property) => [property.key, property]));
    for (const { key, keyNode, value } of properties) {
      const later = used.get(key);
      if (later !== undefined && later.keyNode !== keyNode) {
        const { line } = where.locator.offset(later.keyNode.offset);
        out.push(
          diagnostic(
            where,
            'warning',
            'duplicate_key',
            [...path, key],
            `"${key}" is given twice in the same object; the one on line ${line} is used and this one is ignored. Remove one.`,
            where.locator.offset(keyNode.offset),
          ),
        );
      }
      visit(value, [...path, key]);
    }
  };
  visit(root, []);
  return out;
}

export function kindOf(node: Node): string {
  switch (node.type) {
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    case 'null':
      return 'null';
    case 'boolean':
      return 'true/false';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'property':
      return 'a property';
  }
}
