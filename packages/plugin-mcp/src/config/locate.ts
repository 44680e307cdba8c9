// Where a field path sits in the text of a JSONC file: the 1-based line:column of a value, of a
// key, or of a syntax error, so every diagnostic points at the text a person has to change.
import type { PathSegment, Position } from '@epoch-agent/infra';
import type { Node, ParseError } from 'jsonc-parser';
import { printParseErrorCode } from 'jsonc-parser';

export interface Locator {
  /** The value at `path`; for a path that does not exist, the nearest value that does. */
  value(path: readonly PathSegment[]): Position;
  /** The key of the property at `path` (the value, when the last segment is an array index). */
  key(path: readonly PathSegment[]): Position;
  /** Any offset in the text. */
  offset(offset: number): Position;
}

export function createLocator(text: string, root: Node | undefined): Locator {
  const lineStarts = findLineStarts(text);
  const offset = (at: number): Position => {
    // The last line starting at or before `at`; columns count UTF-16 units, as editors do.
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - (lineStarts[low] ?? 0) + 1 };
  };
  return {
    offset,
    value: (path) => offset(nodeAt(root, path).value?.offset ?? 0),
    key: (path) => {
      const found = nodeAt(root, path);
      return offset((found.exact ? found.key : undefined)?.offset ?? found.value?.offset ?? 0);
    },
  };
}

interface Found {
  /** The node at the path, or at its longest existing prefix. */
  readonly value: Node | undefined;
  /** The key node of the last property on the way, when the path ends at a property. */
  readonly key: Node | undefined;
  readonly exact: boolean;
}

// Not jsonc-parser's findNodeAtLocation: that one takes the first of duplicate keys, while the value
// we validate (getNodeValue, like JSON.parse) is the last one. Positions must point at that one.
function nodeAt(root: Node | undefined, path: readonly PathSegment[]): Found {
  let value = root;
  let key: Node | undefined;
  for (const segment of path) {
    const next = child(value, segment);
    if (next === undefined) return { value, key: undefined, exact: false };
    value = next.value;
    key = next.key;
  }
  return { value, key, exact: true };
}

interface Child {
  readonly value: Node;
  readonly key?: Node;
}

/**
 * Each object's properties by key (the last of a key given twice), made the first time a path
 * goes through the object: a file with 100,000 keys in one object has a diagnostic on each of
 * them, and walking the object for each would be 10^10 steps.
 */
const propertyIndex = new WeakMap<Node, ReadonlyMap<string, Child>>();

function child(node: Node | undefined, segment: PathSegment): Child | undefined {
  if (node?.type === 'array' && typeof segment === 'number') {
    const item = node.children?.[segment];
    return item === undefined ? undefined : { value: item };
  }
  if (node?.type !== 'object' || typeof segment !== 'string') return undefined;
  let index = propertyIndex.get(node);
  if (index === undefined) {
    const byKey = new Map<string, Child>();
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (key !== undefined && value !== undefined) byKey.set(String(key.value), { value, key });
    }
    index = byKey;
    propertyIndex.set(node, index);
  }
  return index.get(segment);
}

function findLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 /* \r */ && text.charCodeAt(i + 1) === 10) continue; // \r\n ends on the \n
    if (ch === 10 || ch === 13) starts.push(i + 1);
  }
  return starts;
}

const SYNTAX_PHRASES: Record<ReturnType<typeof printParseErrorCode>, string> = {
  InvalidSymbol: 'unexpected character (strings and keys need "double quotes")',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a "quoted" key',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":" after the key',
  CommaExpected: 'expected "," between entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the list',
  EndOfFileExpected: 'unexpected text after the end of the top-level object',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'a /* comment */ is not closed',
  UnexpectedEndOfString: 'a string is not closed with "',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character after \\',
  InvalidCharacter: 'invalid character (a line break or control character inside a string)',
  '<unknown ParseErrorCode>': 'syntax error',
};

export function describeSyntaxError(error: ParseError): string {
  return SYNTAX_PHRASES[printParseErrorCode(error.error)];
}
