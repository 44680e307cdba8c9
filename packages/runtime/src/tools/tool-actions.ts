// The generic action a tool does and a request asks for: create, delete, list, get, update,
// search, send or run. Software names these few actions with the same handful of verbs whatever it
// acts on (a file, an issue, a record, a flag), so a request's verb and a tool's say whether they
// are about the same action even when the words differ ("add a row" and `create_record`), and
// across every domain, since the classes say nothing of the object.

export type Action = 'create' | 'delete' | 'list' | 'get' | 'update' | 'search' | 'send' | 'run';

// Each action's verbs. A verb may be of two actions: "show" one thing is to get it, "show" them
// all is to list them.
const VERBS: Readonly<Record<Action, string>> = {
  create: 'create add new make insert generate',
  delete: 'delete remove erase drop trash destroy purge',
  list: 'list enumerate browse show',
  get: 'get fetch retrieve read show view display describe open inspect',
  update: 'update edit change modify set rename patch mark toggle enable disable configure',
  search: 'search find lookup look locate query filter',
  send: 'send post publish notify reply',
  run: 'run execute trigger launch start invoke',
};

/** The actions a list of normalised words names. */
export type Actions = (terms: Iterable<string>) => ReadonlySet<Action>;

/**
 * The actions named by a list of normalised words: those of its first word that names one (a
 * name's first verb is what it does, `create_update` creates; a request's first is what it asks,
 * "find the file and delete it" finds). `normalize` makes the verbs alike to those words.
 */
export function actions(normalize: (word: string) => string | null): Actions {
  const of = new Map<string, Action[]>();
  for (const [action, verbs] of Object.entries(VERBS) as [Action, string][]) {
    for (const verb of verbs.split(' ')) {
      const term = normalize(verb) ?? verb;
      of.set(term, [...(of.get(term) ?? []), action]);
    }
  }
  return (terms) => {
    for (const term of terms) {
      const found = of.get(term);
      if (found !== undefined) return new Set(found);
    }
    return new Set();
  };
}
