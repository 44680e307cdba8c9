// Which text to delete to take one item out of a JSONC object or array: a member (`"key": value`)
// or an element. Pure: text in, deletions out.
//
// An item one of our insertions wrote is removed by undoing that insertion exactly: we look for
// the text the insertion would have turned into this one (the item plus the separators around it),
// so insert then remove gives back the original bytes, a comment it was inserted under included.
// Any other item (hand-written, or edited since) loses the item, one comma next to it, and its
// line when it had the line to itself; with `withComment`, also the comment block directly above
// it (see commentBlockAbove in jsonc-text.ts). Without it, comments outside the item are never
// deleted.
import { type Node, type ParseError, parseTree } from 'jsonc-parser';
import {
  breakAt,
  breakBefore,
  commentBlockAbove,
  hasComment,
  lineStart,
  nextToken,
  startsLine,
} from './jsonc-text.js';

export interface Deletion {
  readonly from: number;
  readonly to: number;
}

/**
 * The text the insertion would make of `original` when it inserts `item` (the item's text as it
 * stands), or undefined when that insertion does not apply to `original`.
 */
export type Reinsert = (original: string, item: string) => string | undefined;

export interface RemoveItemOptions {
  /** The item before it in the same object or array. */
  readonly previous: Node | undefined;
  /** The insertion that may have written it. */
  readonly reinsert: Reinsert;
  /**
   * The comment block directly above the item (its own lines, no blank line between) goes with
   * it: a server entry's `// GitHub, work account` describes that entry and nothing else.
   */
  readonly withComment: boolean;
}

/** The deletions (in descending order) that take `item` out of `text`. */
export function removeItem(
  text: string,
  item: Node,
  { previous, reinsert, withComment }: RemoveItemOptions,
): Deletion[] {
  // The insertion decides first: an entry it put under a comment that was there before (a
  // `servers` holding only "// add servers below") cannot be told from one under a comment of its
  // own, and add then remove must give the file back, comment and all.
  const undo = undoInsertion(text, item, reinsert);
  if (undo !== undefined) return [undo];
  const above = withComment
    ? commentBlockAbove(text, gapBefore(text, item, previous), item.offset)
    : undefined;
  return [...plainRemoval(text, item, previous, above ?? item.offset)];
}

/** Applies deletions in descending order, as removeItem gives them. */
export function applyDeletions(text: string, deletions: readonly Deletion[]): string {
  let out = text;
  for (const { from, to } of deletions) out = out.slice(0, from) + out.slice(to);
  return out;
}

/** Where the whitespace and comments before `item` begin: after `{`, `[` or the comma before it. */
function gapBefore(text: string, item: Node, previous: Node | undefined): number {
  if (previous === undefined) return (item.parent?.offset ?? -1) + 1;
  const after = nextToken(text, previous.offset + previous.length);
  return text[after] === ',' ? after + 1 : after;
}

function undoInsertion(text: string, item: Node, reinsert: Reinsert): Deletion | undefined {
  const start = item.offset;
  const end = item.offset + item.length;
  const piece = text.slice(start, end);
  for (const from of startsBefore(text, start)) {
    for (const to of endsAfter(text, end)) {
      const original = text.slice(0, from) + text.slice(to);
      // Most candidates cut a comma a neighbour needs; parseTree alone tells, and cheaply.
      const errors: ParseError[] = [];
      parseTree(original, errors, { allowTrailingComma: true, allowEmptyContent: true });
      if (errors.length > 0) continue;
      if (reinsert(original, piece) === text) return { from, to };
    }
  }
  return undefined;
}

// Where an insertion could have begun: at the item, after `, ` or ` ` (one-line objects), at the
// start of the item's line, or at the line break (or comma and line break) before it.
function startsBefore(text: string, start: number): number[] {
  const out = [start, start - 1, start - 2];
  if (startsLine(text, start)) {
    const line = lineStart(text, start);
    const before = line - breakBefore(text, line).length;
    out.push(line, before, before - 1);
  }
  return [...new Set(out)].filter((at) => at >= 0);
}

// Where it could have ended: at the item, after a comma, after a line break, or after a line
// break and the indentation of a closing brace.
function endsAfter(text: string, end: number): number[] {
  const out = [end];
  if (text[end] === ',') out.push(end + 1);
  const afterBreak = end + breakAt(text, end).length;
  let afterIndent = afterBreak;
  while (text[afterIndent] === ' ' || text[afterIndent] === '\t') afterIndent++;
  out.push(afterBreak, afterIndent);
  return [...new Set(out)];
}

// `start`: where the item's text begins, its comment block included.
function* plainRemoval(
  text: string,
  item: Node,
  previous: Node | undefined,
  start: number,
): Generator<Deletion> {
  let from = start;
  let to = item.offset + item.length;
  const next = nextToken(text, to);
  let comma: Deletion | undefined;
  if (text[next] === ',') {
    if (hasComment(text, to, next)) comma = { from: next, to: next + 1 };
    else to = next + 1;
    // `{"a": 1, "b": 2}` without "a" is `{"b": 2}`: the space after the comma goes too.
    while (text[to] === ' ' || text[to] === '\t') to++;
  } else if (previous !== undefined) {
    // The last item: the comma that separated it from the one before goes with it.
    const at = nextToken(text, previous.offset + previous.length);
    if (hasComment(text, at + 1, from)) comma = { from: at, to: at + 1 };
    else from = at;
  }
  // An item that had its lines to itself takes them along, so no blank line is left behind.
  let lineEnd = to;
  while (text[lineEnd] === ' ' || text[lineEnd] === '\t') lineEnd++;
  const lineBreak = breakAt(text, lineEnd);
  if (startsLine(text, from) && lineBreak !== '') {
    from = lineStart(text, from);
    to = lineEnd + lineBreak.length;
  }
  // Descending, so each deletion leaves the offsets of the ones after it valid.
  if (comma !== undefined && comma.from > from) yield comma;
  yield { from, to };
  if (comma !== undefined && comma.from < from) yield comma;
}
