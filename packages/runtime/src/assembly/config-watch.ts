// Hand edits of the user's mcp.json reach a running runtime: the file is watched and each saved
// change applied (runtime.applyMcpConfig: only the servers that changed reconnect, a file that
// does not parse changes nothing and shows its diagnostic). The one watcher of the project: the
// connectors page runs on it, and a host that wants edits to take effect while it runs does too.
// The directory is watched, not the file: editors and our own atomic writes replace the file by a
// rename, which would end a watch on the file itself.

import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type Logger, messageOf, silentLogger } from '@epoch-agent/infra';
import type { McpConfigApplied } from './apply-mcp-config.js';

// Editors save in several steps (write, rename, chmod); apply once they are done.
const SETTLE_MS = 150;

/** What watchMcpConfig applies the file to: a Runtime. */
export interface McpConfigTarget {
  readonly configFile: string;
  applyMcpConfig(): Promise<McpConfigApplied>;
}

export interface McpConfigWatchOptions {
  /** Called after each change is applied, with what it did (e.g. to rebuild the agent's tools). */
  readonly onApplied?: ((applied: McpConfigApplied) => void) | undefined;
  /** Where a failed apply is logged (the runtime closed meanwhile); default silent. */
  readonly logger?: Logger | undefined;
}

/**
 * Applies `runtime.configFile` to `runtime` after each change of it, once an editor's save has
 * settled; returns the function that stops watching. A file whose directory does not exist yet is
 * not watched (logged at debug): nothing can be saved there without creating it first.
 */
export function watchMcpConfig(
  runtime: McpConfigTarget,
  options: McpConfigWatchOptions = {},
): () => void {
  const { onApplied, logger = silentLogger } = options;
  const file = runtime.configFile;
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  const apply = (): void => {
    runtime
      .applyMcpConfig()
      .then(onApplied)
      .catch((error: unknown) =>
        logger.error(`Applying the change to ${file} failed: ${messageOf(error)}`),
      );
  };
  try {
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(apply, SETTLE_MS);
    });
  } catch (error) {
    logger.debug(`${file} is not watched: ${messageOf(error)}`);
    return () => {};
  }
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
