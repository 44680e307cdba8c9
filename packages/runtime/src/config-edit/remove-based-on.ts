// Whether a remove a front end asked for still applies to the entry it showed: the entry's version
// (entry-version.ts, as readServerEntry gives it) against the entry in the file now. Pure.
import { entryVersion } from './entry-version.js';
import { McpConfigWriteError } from './errors.js';
import { membersOf, parseConfigText } from './plan-add.js';

/**
 * The refusal (`changed_since`) when server `name`'s entry in `text` is no longer the text
 * `basedOn` versions; undefined when it still is, or when the file cannot say (a file that does not
 * parse, no such server): the remove itself refuses those, naming what is wrong.
 */
export function removedSince(
  text: string,
  file: string,
  name: string,
  basedOn: string,
): McpConfigWriteError | undefined {
  const parsed = parseConfigText(text, file);
  if (!parsed.ok || parsed.value.servers === undefined) return undefined;
  // The last entry of the name: the one the loader uses, and the one readServerEntry versions.
  const value = membersOf(parsed.value.servers).findLast((m) => m.children?.[0]?.value === name)
    ?.children?.[1];
  if (value === undefined) return undefined;
  if (entryVersion(text.slice(value.offset, value.offset + value.length)) === basedOn) {
    return undefined;
  }
  return new McpConfigWriteError(
    'changed_since',
    `server "${name}" was not removed: its entry in ${file} (edited by hand, or on another page) changed since you opened it — reload to see it as it is now, then remove it again if you still mean to.`,
    { file, server: name },
  );
}
