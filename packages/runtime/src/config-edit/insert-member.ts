// Where one new member goes in a JSONC object (or one new element in an array: the same rules, the
// element in place of the member) and what separates it from its neighbours: the insertion is one
// contiguous piece of text, so every byte of the file outside it stays as it was.
//
// The new member goes last. Its indentation and line ending are the file's own: the indentation of
// the members already there (or one step past the object's own line when there are none), the step
// as the file indents. An object written on one line gets the member on that line.
//
// The cases are chosen so that no two different files turn into the same text (that is what lets
// removeServer give back the original exactly):
// - after the last member, no trailing comma: `,` + newline + member, right after that member (a
//   comment at the end of its line then follows the new member: the comma must come first);
// - after the last member, a trailing comma: newline + member + `,` after the comments that end
//   the comma's line (the file's trailing-comma style is kept);
// - an empty object with only whitespace inside: newline + member + newline + indentation, right
//   before `}`, so `{}` becomes a pretty block. (`{` newline `}` keeps its newline and gets a blank
//   line: the other pretty form would be exactly what `{}` becomes.) An empty array written on one
//   line stays on it (`[]` becomes `["x"]`): lists of names are written that way;
// - an empty object with comments inside, `}` first on its line: member + newline at the start of
//   that line, after the comments; with `}` after something on its line: newline + member before it.
import type { Node } from 'jsonc-parser';
import {
  hasBreak,
  hasComment,
  lineIndent,
  lineStart,
  lineTail,
  nextToken,
  startsLine,
} from './jsonc-text.js';

export interface Insertion {
  /** Offset in the text where `text` goes. */
  readonly offset: number;
  readonly text: string;
}

/** How the file writes things: its line ending and one step of indentation. */
export interface TextStyle {
  readonly eol: string;
  readonly unit: string;
}

/** A member on one line, or across lines with its first line at `indent`. */
export type MemberLayout =
  | { readonly inline: true }
  | ({ readonly inline: false; readonly indent: string } & TextStyle);

/** The member's text from its key to the end of its value, laid out as asked. */
export type RenderMember = (layout: MemberLayout) => string;

export function insertMember(
  text: string,
  object: Node,
  render: RenderMember,
  style: TextStyle,
): Insertion {
  const members = object.children ?? [];
  const last = members.at(-1);
  const close = object.offset + object.length - 1;
  const lastEnd = last === undefined ? undefined : last.offset + last.length;
  const comma =
    lastEnd !== undefined && text[nextToken(text, lastEnd)] === ','
      ? nextToken(text, lastEnd)
      : undefined;

  if (isInline(text, object)) {
    const member = render({ inline: true });
    if (lastEnd === undefined) return { offset: close, text: member };
    if (comma === undefined) return { offset: lastEnd, text: `, ${member}` };
    return { offset: comma + 1, text: ` ${member},` };
  }

  const { eol } = style;
  const indent = memberIndent(text, object, style.unit);
  const member = render({ inline: false, indent, ...style });
  if (lastEnd !== undefined) {
    if (comma === undefined) return { offset: lastEnd, text: `,${eol}${indent}${member}` };
    return { offset: lineTail(text, comma + 1), text: `${eol}${indent}${member},` };
  }
  if (!hasComment(text, object.offset + 1, close)) {
    const closeIndent = lineIndent(text, object.offset);
    return { offset: close, text: `${eol}${indent}${member}${eol}${closeIndent}` };
  }
  const closeLine = lineStart(text, close);
  if (closeLine > object.offset && startsLine(text, close)) {
    return { offset: closeLine, text: `${indent}${member}${eol}` };
  }
  return { offset: close, text: `${eol}${indent}${member}` };
}

/** An array or a non-empty object written on one line, or any object in a file that is one line. */
function isInline(text: string, object: Node): boolean {
  const end = object.offset + object.length;
  if (hasBreak(text, object.offset, end)) return false;
  if (object.type === 'array' || (object.children ?? []).length > 0) return true;
  return !/[\r\n]/.test(text.replace(/[\r\n]+$/, ''));
}

/** The indentation of the last member that starts a line, else one step past the object's line. */
function memberIndent(text: string, object: Node, unit: string): string {
  const members = object.children ?? [];
  for (let i = members.length - 1; i >= 0; i--) {
    const member = members[i];
    if (member !== undefined && startsLine(text, member.offset)) {
      return lineIndent(text, member.offset);
    }
  }
  return lineIndent(text, object.offset) + unit;
}

/**
 * One step of indentation as the file writes it: first from inside `object`'s members (the fields
 * of a server entry), then from `object`'s members, then the step most used in the file; two
 * spaces in a file that indents nothing.
 */
export function indentUnit(text: string, root: Node, object: Node): string {
  const members = object.children ?? [];
  for (let i = members.length - 1; i >= 0; i--) {
    const value = members[i]?.children?.[1];
    const step = value?.type === 'object' ? indentStep(text, value) : undefined;
    if (step !== undefined) return step;
  }
  return indentStep(text, object) ?? mostUsedStep(text, root) ?? '  ';
}

/** What a member starting a line adds to the indentation of its object's line. */
function indentStep(text: string, object: Node): string | undefined {
  const base = lineIndent(text, object.offset);
  const members = object.children ?? [];
  for (let i = members.length - 1; i >= 0; i--) {
    const member = members[i];
    if (member === undefined || !startsLine(text, member.offset)) continue;
    const indent = lineIndent(text, member.offset);
    if (indent.length > base.length && indent.startsWith(base)) return indent.slice(base.length);
  }
  return undefined;
}

function mostUsedStep(text: string, root: Node): string | undefined {
  const counts = new Map<string, number>();
  const visit = (node: Node): void => {
    if (node.type === 'object') {
      const step = indentStep(text, node);
      if (step !== undefined) counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  let best: [string, number] | undefined;
  for (const entry of counts) if (best === undefined || entry[1] > best[1]) best = entry;
  return best?.[0];
}
