// Words that mean the same thing to someone asking for a tool as they do in tools' descriptions:
// a person says "folder", "bug", "repo" or "emoji" where a server writes "directory", "issue",
// "repository" or "reaction". Each word of a tool is indexed with the other words of its group, so a
// query in either wording finds it; the search's ranking stays the index's own.
//
// A word means one thing in one field and another elsewhere: "move" a file is to rename it, "move"
// a ticket is to change its status; a "page" of a browser is a web page, a "page" of a list is not.
// So a group that could cross fields holds only `within` them: it applies to a tool only when the
// tool's own words (name, title, description, parameters, server) name one of its `within` words.

interface WordGroup {
  /** Words that stand for one another. */
  readonly words: string;
  /** The field it holds in: words one of which the tool must have; none for a group that always holds. */
  readonly within?: string;
}

// "show" is no group's: to show one thing is to get it and to show them all is to list them, so it
// stands for either (tool-actions.ts), not for "list" alone. Nor are "change", "edit" and "update":
// that they are one action is said of the tool's and the request's verbs (tool-actions.ts), and as
// words of a text they are not alike ("the changes of a commit", "who changed the flag"). Nor is a
// "member" a "user": a user is an account, a member is one's place in a team, a board or a channel.
const GROUPS: readonly WordGroup[] = [
  { words: 'directory folder' },
  { words: 'email mail inbox mailbox' },
  { words: 'issue bug ticket' },
  { words: 'pr pull merge', within: 'repository git github branch commit' },
  { words: 'repository repo' },
  { words: 'reaction emoji react', within: 'message chat channel comment slack' },
  {
    words: 'calendar agenda event meeting appointment invite invitation',
    within: 'calendar meeting appointment',
  },
  {
    words: 'memory remember memorize knowledge recall forget',
    within: 'memory knowledge graph entity entities observation',
  },
  { words: 'delete remove erase drop trash' },
  { words: 'image picture photo screenshot png jpeg' },
  { words: 'terminate kill cancel abort' },
  { words: 'move rename', within: 'file directory folder path' },
  { words: 'read open view', within: 'file directory folder path' },
  { words: 'write save store', within: 'file directory folder path' },
  { words: 'create make new' },
  { words: 'get fetch retrieve' },
  { words: 'run execute trigger launch start' },
  { words: 'search find lookup locate look' },
  { words: 'send post tell notify announce', within: 'message channel chat email mail slack' },
  { words: 'comment reply respond answer' },
  { words: 'approve review', within: 'pull request review merge' },
  { words: 'share access permission' },
  { words: 'free available availability', within: 'calendar meeting schedule' },
  { words: 'compress gzip zip' },
  { words: 'environment env' },
  { words: 'reason think thought thinking' },
  { words: 'sql query database postgres', within: 'sql database table postgres schema' },
  { words: 'message chat' },
  { words: 'web page site website browser', within: 'browser navigate' },
  { words: 'spreadsheet sheet csv excel' },
  { words: 'metadata info size modified', within: 'file directory folder path' },
];

/** A tool's words' equivalents: each normalised word to the other words of its groups. */
export type Related = (toolWords: ReadonlySet<string>) => ReadonlyMap<string, readonly string[]>;

/**
 * For a tool's normalised words, the equivalents of each in every group that holds for the tool;
 * `normalize` makes the groups' words alike to the index's and queries' terms. The equivalents are
 * given as the groups write them: the index normalises them as it does every word.
 */
export function vocabulary(normalize: (word: string) => string | null): Related {
  const terms = (line: string) =>
    line.split(' ').map((word) => ({ word, term: normalize(word) ?? word }));
  const groups = GROUPS.map(({ words, within }) => ({
    words: terms(words),
    within: within === undefined ? undefined : terms(within).map(({ term }) => term),
  }));
  return (toolWords) => {
    const related = new Map<string, string[]>();
    for (const { words, within } of groups) {
      if (within !== undefined && !within.some((term) => toolWords.has(term))) continue;
      for (const { term } of words) {
        if (!toolWords.has(term)) continue;
        const others = words.filter((other) => other.term !== term).map(({ word }) => word);
        related.set(term, [...(related.get(term) ?? []), ...others]);
      }
    }
    return related;
  };
}
