// Which text to delete to take one server out of mcp.json. Pure: text in, deletions out.
//
// An entry addServer wrote is removed by undoing that insertion exactly (add then remove gives back
// the original bytes, a comment the entry was added under included); any other entry loses the
// entry, one comma and its line — see remove-item.ts. The comment block directly above such an
// entry (its own lines, no blank line between) describes that entry and goes with it; a comment
// after a blank line stays. (The only entry of `servers` under a comment, written just as addServer
// would have added it, cannot be told from an added one: its comment stays.)
import { suggest } from '@epoch-agent/plugin-mcp/config';
import { membersOf, type Plan, parseConfigText, planAdd, refuse } from './plan-add.js';
import { type Deletion, removeItem } from './remove-item.js';

/** The deletions (in descending order) that take out the last entry called `name`. */
export function planRemove(text: string, file: string, name: string): Plan<Deletion[]> {
  const parsed = parseConfigText(text, file);
  if (!parsed.ok) return parsed;
  const { servers } = parsed.value;
  const members = servers === undefined ? [] : membersOf(servers);
  const index = members.findLastIndex((member) => member.children?.[0]?.value === name);
  const member = members[index];
  if (member === undefined) {
    const names = members.map((m) => String(m.children?.[0]?.value));
    const guess = suggest(name, names);
    return refuse(
      'unknown_server',
      `there is no server "${name}" in ${file}, so nothing was removed.${guess === undefined ? '' : ` Did you mean "${guess}"?`}`,
      { file, server: name },
    );
  }
  const reinsert = (original: string, entry: string) => {
    const plan = planAdd(original, file, name, () => entry);
    if (!plan.ok) return undefined;
    const { offset, text: inserted } = plan.value;
    return original.slice(0, offset) + inserted + original.slice(offset);
  };
  return {
    ok: true,
    value: removeItem(text, member, {
      previous: members[index - 1],
      reinsert,
      withComment: true,
    }),
  };
}
