// Hand edits of the user's mcp.json reach the running page: the form adds what it can, and the
// rest (timeouts, oauth, headers) is written by hand, so `epoch web` watches the file and applies
// each saved change (runtime.applyMcpConfig: only the servers that changed reconnect, a file that
// does not parse changes nothing and shows its diagnostic). The directory is watched, not the file:
// editors and our own atomic writes replace the file, which would end a watch on it.

import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';

// Editors save in several steps (write, rename, chmod); apply once they are done.
const SETTLE_MS = 150;

/** Calls `apply` after each change of `file`; returns the function that stops watching. */
export function watchUserConfig(
  file: string,
  apply: () => Promise<void>,
  logger: Logger,
): () => void {
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        apply().catch((error: unknown) =>
          logger.error(`epoch web could not apply the change to ${file}: ${messageOf(error)}`),
        );
      }, SETTLE_MS);
    });
  } catch (error) {
    // No directory yet (no mcp.json was ever written): nothing to watch.
    logger.debug(`epoch web does not watch ${file}: ${(error as Error).message}`);
    return () => {};
  }
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
