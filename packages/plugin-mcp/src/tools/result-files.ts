// The directory where cut tool results are kept whole ($EPOCH_HOME/tool-results), so that the model
// or a person can read what the cut left out. A result may hold anything its tool could read, so
// each file is 0600 in a 0700 directory. Pruned whenever a file is written, so it never grows
// without end: files older than 7 days go, then the oldest until the rest take at most 100 MB.
import { randomBytes } from 'node:crypto';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { epochHome, writeFileAtomic } from '@epoch-agent/infra';

export const TOOL_RESULTS_MAX_BYTES = 100 * 1024 * 1024;
export const TOOL_RESULTS_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export function defaultToolResultsDir(): string {
  return join(epochHome(), 'tool-results');
}

/** What a saved result is named after; any characters, made safe for a file name here. */
export interface SavedResultName {
  readonly server: string;
  readonly tool: string;
  readonly extension: 'txt' | 'json';
}

/**
 * Writes `data` into a new file of `dir` and prunes the directory; resolves with the file's path.
 * Rejects when the file cannot be written (a full disk, a directory that is not one): the caller
 * says so instead of giving the path.
 */
export async function saveToolResult(
  dir: string,
  name: SavedResultName,
  data: string,
): Promise<string> {
  const now = Date.now();
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const file = join(
    dir,
    `${stamp}-${safe(name.server)}-${safe(name.tool)}-${randomBytes(4).toString('hex')}.${name.extension}`,
  );
  await writeFileAtomic(file, data, { ownerOnly: true });
  await prune(dir, file, now);
  return file;
}

// Letters, digits, `_` and `-` only, and short: a tool's name is the server's to choose, and must
// not reach out of the directory or past a file name's length.
function safe(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
}

/** Newest first: every file but `keep` that is too old, or would pass the size budget, goes. */
async function prune(dir: string, keep: string, now: number): Promise<void> {
  const files: { readonly path: string; readonly size: number; readonly mtime: number }[] = [];
  for (const entry of await readdir(dir).catch(() => [])) {
    const path = join(dir, entry);
    // Another process's prune may have removed it meanwhile.
    const info = await lstat(path).catch(() => undefined);
    // Only regular files: a link or a FIFO someone put here is not ours to remove.
    if (info?.isFile()) files.push({ path, size: info.size, mtime: info.mtimeMs });
  }
  files.sort((a, b) => b.mtime - a.mtime);
  let total = 0;
  for (const { path, size, mtime } of files) {
    if (
      path !== keep &&
      (now - mtime > TOOL_RESULTS_MAX_AGE_MS || total + size > TOOL_RESULTS_MAX_BYTES)
    ) {
      // A file that cannot be removed costs space, not the result that was just saved.
      await rm(path, { force: true }).catch(() => undefined);
      continue;
    }
    total += size;
  }
}
