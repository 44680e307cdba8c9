// Files that may hold secrets (tokens, the user's config, cached schemas): written atomically and
// readable by the owner only.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** File mode for a file that does not exist yet. An existing file keeps its own mode. */
  readonly mode?: number;
  /**
   * The file holds credentials (an OAuth login): it is 0600 and its directory 0700 even when they
   * already exist with a looser mode — a copy, a restore or a careless chmod must not leave a
   * token readable by others.
   */
  readonly ownerOnly?: boolean;
}

/**
 * Writes `data` to `file` so that a reader sees either the old bytes or the new ones, never a
 * half-written file: a temp file beside it (same filesystem, so rename is atomic), fsync, rename.
 * The temp file is created 0600 from the start, so a secret is never briefly world-readable.
 * A symlinked target (a dotfiles-managed mcp.json) stays a link: the file it points at is replaced.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const file = await linkTarget(path);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  if (options.ownerOnly) await narrow(dirname(file), 0o700);
  const mode = options.ownerOnly ? 0o600 : ((await existingMode(file)) ?? options.mode ?? 0o600);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask never widens 0600 but may narrow a kept mode; set it explicitly.
    await chmod(tmp, mode);
    await rename(tmp, file);
  } catch (error) {
    // A failed write (disk full, file size limit) must not leave a half-written temp file behind.
    await rm(tmp, { force: true });
    throw error;
  }
}

async function linkTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw error;
  }
}

/** Takes group and other access away from `path`; one already that narrow is left alone. */
async function narrow(path: string, mode: number): Promise<void> {
  if (((await stat(path)).mode & 0o777 & ~mode) !== 0) await chmod(path, mode);
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
