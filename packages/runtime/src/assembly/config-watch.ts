// Hand edits of the user's mcp.json reach a running runtime: the file is watched and each saved
// change applied (runtime.applyMcpConfig: only the servers that changed reconnect, a file that
// does not parse changes nothing and shows its diagnostic). The one watcher of the project: the
// connectors page runs on it, and a host that wants edits to take effect while it runs does too.
// The directory is watched, not the file: editors and our own atomic writes replace the file by a
// rename, which would end a watch on the file itself. The project's `.epoch/mcp.json` that applies
// when the watch begins is watched the same way (one made later counts from the next apply).

import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type Logger, messageOf, silentLogger } from '@epoch-agent/infra';
import type { McpConfigApplied } from './apply-mcp-config.js';

// Editors save in several steps (write, rename, chmod); apply once they are done.
const SETTLE_MS = 150;

/** What watchMcpConfig applies the file to: a Runtime. */
export interface McpConfigTarget {
  readonly configFile: string;
  /** The project's file, watched too when there is one. */
  readonly projectFile?: string | undefined;
  applyMcpConfig(): Promise<McpConfigApplied>;
}

export interface McpConfigWatchOptions {
  /** Called after each change is applied, with what it did (e.g. to rebuild the agent's tools). */
  readonly onApplied?: ((applied: McpConfigApplied) => void) | undefined;
  /** Where a failed apply is logged (the runtime closed meanwhile); default silent. */
  readonly logger?: Logger | undefined;
}

/**
 * Applies `runtime.configFile` (and `runtime.projectFile`) to `runtime` after each change of
 * either, once an editor's save has settled; returns the function that stops watching. A file
 * whose directory does not exist yet is not watched (logged at debug): nothing can be saved there
 * without creating it first.
 */
export function watchMcpConfig(
  runtime: McpConfigTarget,
  options: McpConfigWatchOptions = {},
): () => void {
  const { onApplied, logger = silentLogger } = options;
  const file = runtime.configFile;
  let timer: NodeJS.Timeout | undefined;
  const apply = (): void => {
    runtime
      .applyMcpConfig()
      .then(onApplied)
      .catch((error: unknown) =>
        logger.error(`Applying the change to ${file} failed: ${messageOf(error)}`),
      );
  };
  const files = runtime.projectFile === undefined ? [file] : [file, runtime.projectFile];
  const watchers = files.flatMap((watched) => {
    const name = basename(watched);
    try {
      const watcher = watch(dirname(watched), (_event, changed) => {
        if (changed !== null && changed !== name) return;
        clearTimeout(timer);
        timer = setTimeout(apply, SETTLE_MS);
      });
      watcher.on('error', () => watcher.close());
      return [watcher];
    } catch (error) {
      logger.debug(`${watched} is not watched: ${messageOf(error)}`);
      return [];
    }
  });
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
