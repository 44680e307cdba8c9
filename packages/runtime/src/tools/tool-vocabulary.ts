// Words that mean the same thing to someone asking for a tool as they do in tools' descriptions:
// a person says "folder", "bug", "repo" or "emoji" where a server writes "directory", "issue",
// "repository" or "reaction". Each group's words are indexed as one another, so a query in either
// wording finds the tool; the search's ranking stays the index's own.
const GROUPS = [
  'directory folder',
  'email mail inbox mailbox',
  'issue bug ticket',
  'pr pull merge',
  'repository repo',
  'reaction emoji react',
  'calendar agenda event meeting appointment invite invitation',
  'memory remember memorize knowledge recall forget',
  'delete remove erase drop trash',
  'image picture photo screenshot png jpeg',
  'terminate kill cancel abort',
  'move rename',
  'create make new',
  'list show display',
  'search find lookup locate look',
  'send post tell notify announce',
  'comment reply respond answer',
  'approve review',
  'share access permission',
  'free available availability',
  'compress gzip zip',
  'environment env',
  'reason think thought thinking',
  'sql query database postgres',
  'edit modify change update',
  'user member person people coworker colleague',
  'message chat',
  'web page site website browser',
  'spreadsheet sheet csv excel',
  'metadata info size modified',
];

/** Each word's group, the word itself included; `normalize` makes index and query terms alike. */
export function vocabulary(normalize: (word: string) => string): ReadonlyMap<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const line of GROUPS) {
    const words = [...new Set(line.split(' ').map(normalize))];
    for (const word of words) groups.set(word, [...(groups.get(word) ?? []), ...words]);
  }
  return new Map([...groups].map(([word, words]) => [word, [...new Set(words)]]));
}
