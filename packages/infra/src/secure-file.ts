// Files that may hold secrets (tokens, the user's config, cached schemas): written atomically and
// readable by the owner only.
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InfraError } from './errors.js';

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
 * A symlinked target (a dotfiles-managed mcp.json) stays a link: the file it points at is replaced,
 * or created when the link dangles. An existing file keeps its mode and owner; one without a write
 * bit is refused (InfraError `not_writable`): root could write it anyway, and would turn a file
 * its owner protected into one of root's. Anything but a regular file is InfraError `not_a_file`.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const file = await linkTarget(path);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  if (options.ownerOnly) await narrow(dirname(file), 0o700);
  const existing = await existingFile(file);
  const mode = options.ownerOnly ? 0o600 : (existing?.mode ?? options.mode ?? 0o600);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', 0o600);
  try {
    try {
      // The new inode belongs to whoever writes it: root editing a user's file (sudo) would make
      // it root's. It gets the old owner back; where the writer may not give it (EPERM), the
      // edit fails rather than change who owns the file.
      const owner = existing?.owner;
      if (
        owner !== undefined &&
        (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.())
      ) {
        await handle.chown(owner.uid, owner.gid);
      }
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

// How many links a dangling chain may have before it is taken for a loop (Linux's MAXSYMLINKS).
const MAX_LINKS = 40;

/** The file `path` ends at: through every link, also when the last one points at nothing yet. */
async function linkTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let at = path;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    try {
      if (!(await lstat(at)).isSymbolicLink()) return at;
    } catch (error) {
      // The end of the chain: what the file is to be created as.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return at;
      throw error;
    }
    at = resolve(dirname(at), await readlink(at));
  }
  throw new InfraError('not_a_file', `${path} is a loop of symbolic links; point it at a file.`);
}

/** Takes group and other access away from `path`; one already that narrow is left alone. */
async function narrow(path: string, mode: number): Promise<void> {
  if (((await stat(path)).mode & 0o777 & ~mode) !== 0) await chmod(path, mode);
}

interface Existing {
  readonly mode: number;
  readonly owner: { readonly uid: number; readonly gid: number };
}

async function existingFile(file: string): Promise<Existing | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!info.isFile()) {
    throw new InfraError('not_a_file', `${file} is not a regular file, so it is not replaced.`);
  }
  const mode = info.mode & 0o777;
  if ((mode & 0o222) === 0) {
    throw new InfraError(
      'not_writable',
      `${file} is write-protected (mode ${mode.toString(8).padStart(4, '0')}), so it is not changed; make it writable first (chmod u+w ${file}), or edit it by hand.`,
    );
  }
  return { mode, owner: { uid: info.uid, gid: info.gid } };
}
