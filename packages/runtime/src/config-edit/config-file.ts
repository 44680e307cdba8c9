// The user's mcp.json as the edits meet it on disk: read whole (and refused when it is not UTF-8,
// as writing back a decoded text would change bytes the edits promise to keep), edited under its
// lock, and what the file system refuses said as McpConfigWriteError codes.
import { isInfraError, MAX_CONFIG_BYTES, readRegularFile, withFileLock } from '@epoch-agent/infra';
import { McpConfigWriteError } from './errors.js';

export interface McpConfigWriteOptions {
  /** How long to wait for another writer's `<file>.lock`. Default 15 s. */
  readonly lockWaitMs?: number;
}

// A writer holds the lock for milliseconds; ten seconds means it is stopped, not slow.
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

/** The text of the mcp.json at `file`; empty, and `exists: false`, when there is none. */
export async function readConfig(file: string): Promise<{ text: string; exists: boolean }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, MAX_CONFIG_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', exists: false };
    throw fileError(error, file);
  }
  const text = bytes.toString('utf8');
  // Decoding replaces invalid bytes; writing that back would change bytes we promise to keep.
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new McpConfigWriteError(
      'invalid_encoding',
      `${file} is not valid UTF-8, so it was not changed; save it as UTF-8 first.`,
      { file },
    );
  }
  return { text, exists: true };
}

/** The text of the mcp.json at `path`, which must exist to hold server `name`. */
export async function existingConfig(
  path: string,
  name: string,
  nothingWas: 'changed' | 'removed',
): Promise<string> {
  const config = await readConfig(path);
  if (!config.exists) {
    throw new McpConfigWriteError(
      'unknown_server',
      `there is no server "${name}" in ${path} (the file does not exist), so nothing was ${nothingWas}.`,
      { file: path, server: name },
    );
  }
  return config.text;
}

/** The text without its byte order mark: what the parser and the planners read. */
export function stripBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** Runs `edit` holding the file's lock; a lock held too long by another writer is `lock_timeout`. */
export async function locked<T>(
  path: string,
  options: McpConfigWriteOptions,
  edit: () => Promise<T>,
): Promise<T> {
  const lock = { waitMs: options.lockWaitMs ?? LOCK_WAIT_MS, staleMs: STALE_LOCK_MS };
  try {
    return await withFileLock(path, lock, edit);
  } catch (error) {
    if (isInfraError(error, 'lock_timeout')) {
      throw new McpConfigWriteError('lock_timeout', `${error.message} Nothing was written.`, {
        file: path,
      });
    }
    throw fileError(error, path);
  }
}

const DENIED: Readonly<Record<string, string>> = {
  EACCES: 'permission denied; check the owner and mode of the file and of its directory',
  EPERM: 'permission denied; check the owner and mode of the file and of its directory',
  EROFS: 'it is on a read-only file system',
};

/** A refusal of the file system as `unusable_file`, naming the path it refused; others unchanged. */
function fileError(error: unknown, file: string): unknown {
  if (
    isInfraError(error, 'not_a_file') ||
    isInfraError(error, 'too_large') ||
    isInfraError(error, 'not_writable')
  ) {
    return new McpConfigWriteError('unusable_file', `${error.message} Nothing was written.`, {
      file,
    });
  }
  const { code, path } = error as NodeJS.ErrnoException;
  const why = code === undefined ? undefined : DENIED[code];
  if (why === undefined) return error;
  // The path refused may be the lock or the temp file beside the file: say which.
  return new McpConfigWriteError(
    'unusable_file',
    `cannot write ${path ?? file}: ${why}. Nothing was written to ${file}.`,
    { file },
  );
}
