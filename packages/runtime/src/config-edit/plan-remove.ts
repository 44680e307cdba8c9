// Which text to delete to take one server out of mcp.json. Pure: text in, deletions out.
//
// An entry addServer wrote is removed by undoing that insertion exactly: we look for the text the
// insertion would have turned into this one (the entry plus the separators around it), so add then
// remove gives back the original bytes. Any other entry (hand-written, or edited since) loses the
// entry, one comma next to it, and its line when it had the line to itself.
//
// Comments are never deleted, not even the ones directly above the entry: whether `// GitHub, work
// account` describes this server, the next one, or a whole group cannot be told from the text, and
// a comment the user wrote is theirs. The web page says to tidy comments by hand.
import { type Node, type ParseError, parseTree } from 'jsonc-parser';
import {
  breakAt,
  breakBefore,
  hasComment,
  lineStart,
  nextToken,
  startsLine,
} from './jsonc-text.js';
import { membersOf, type Plan, parseConfigText, planAdd, refuse } from './plan-add.js';

export interface Deletion {
  readonly from: number;
  readonly to: number;
}

/** The deletions (in descending order) that take out the last entry called `name`. */
export function planRemove(text: string, file: string, name: string): Plan<Deletion[]> {
  const parsed = parseConfigText(text, file);
  if (!parsed.ok) return parsed;
  const { servers } = parsed.value;
  const members = servers === undefined ? [] : membersOf(servers);
  const index = members.findLastIndex((member) => member.children?.[0]?.value === name);
  const member = members[index];
  if (member === undefined) {
    return refuse(
      'unknown_server',
      `there is no server "${name}" in ${file}, so nothing was removed.`,
      { file, server: name },
    );
  }
  const undo = undoInsertion(text, file, name, member);
  if (undo !== undefined) return { ok: true, value: [undo] };
  return { ok: true, value: [...plainRemoval(text, member, members[index - 1])] };
}

function undoInsertion(
  text: string,
  file: string,
  name: string,
  member: Node,
): Deletion | undefined {
  const start = member.offset;
  const end = member.offset + member.length;
  const entry = text.slice(start, end);
  for (const from of startsBefore(text, start)) {
    for (const to of endsAfter(text, end)) {
      const original = text.slice(0, from) + text.slice(to);
      // Most candidates cut a comma a neighbour needs; parseTree alone tells, and cheaply.
      const errors: ParseError[] = [];
      parseTree(original, errors, { allowTrailingComma: true, allowEmptyContent: true });
      if (errors.length > 0) continue;
      const plan = planAdd(original, file, name, () => entry);
      if (!plan.ok) continue;
      const { offset, text: inserted } = plan.value;
      if (original.slice(0, offset) + inserted + original.slice(offset) === text) {
        return { from, to };
      }
    }
  }
  return undefined;
}

// Where an insertion could have begun: at the entry, after `, ` or ` ` (one-line objects), at the
// start of the entry's line, or at the line break (or comma and line break) before it.
function startsBefore(text: string, start: number): number[] {
  const out = [start, start - 1, start - 2];
  if (startsLine(text, start)) {
    const line = lineStart(text, start);
    const before = line - breakBefore(text, line).length;
    out.push(line, before, before - 1);
  }
  return [...new Set(out)].filter((at) => at >= 0);
}

// Where it could have ended: at the entry, after a comma, after a line break, or after a line
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

function* plainRemoval(
  text: string,
  member: Node,
  previous: Node | undefined,
): Generator<Deletion> {
  let from = member.offset;
  let to = member.offset + member.length;
  const next = nextToken(text, to);
  let comma: Deletion | undefined;
  if (text[next] === ',') {
    if (hasComment(text, to, next)) comma = { from: next, to: next + 1 };
    else to = next + 1;
    // `{"a": 1, "b": 2}` without "a" is `{"b": 2}`: the space after the comma goes too.
    while (text[to] === ' ' || text[to] === '\t') to++;
  } else if (previous !== undefined) {
    // The last entry: the comma that separated it from the one before goes with it.
    const at = nextToken(text, previous.offset + previous.length);
    if (hasComment(text, at + 1, from)) comma = { from: at, to: at + 1 };
    else from = at;
  }
  // An entry that had its lines to itself takes them along, so no blank line is left behind.
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
