// Where a project's MCP servers are written: `.epoch/mcp.json` in the directory epoch runs in, or
// in its nearest ancestor that has one. The search stops at a repository root (a directory holding
// `.git`, after looking in it: the file is committed beside the code) and at the user's home
// (before looking in it: `~/.epoch` is epoch's own home, and nothing above home is a project), so
// a file in some parent directory the repository does not own is never read.
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The project file's place under a project's directory. */
export const PROJECT_CONFIG_PATH = join('.epoch', 'mcp.json');

export interface ProjectFileOptions {
  /** Where the search stops, unread. Default: the user's home (`os.homedir()`). */
  readonly home?: string;
  /** The user's own mcp.json: never read as a project's too (an EPOCH_HOME inside a project). */
  readonly userFile?: string;
}

/** The project file that applies in `start` (absolute); undefined when there is none. */
export async function findProjectConfig(
  start: string,
  options: ProjectFileOptions = {},
): Promise<string | undefined> {
  const home = resolve(options.home ?? homedir());
  let dir = resolve(start);
  for (;;) {
    if (dir === home) return undefined;
    const file = join(dir, PROJECT_CONFIG_PATH);
    if ((await kindOf(file)) === 'file') {
      return options.userFile !== undefined && resolve(options.userFile) === file
        ? undefined
        : file;
    }
    if ((await kindOf(join(dir, '.git'))) !== undefined) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The project file a project-scoped write goes to: the one that applies in `start`, or a new one
 * in `start` itself when none does. Undefined when `start` is the user's home, or the new file
 * would be the user's own: no project file there would ever be read.
 */
export async function projectConfigFor(
  start: string,
  options: ProjectFileOptions = {},
): Promise<string | undefined> {
  const found = await findProjectConfig(start, options);
  if (found !== undefined) return found;
  const dir = resolve(start);
  const file = join(dir, PROJECT_CONFIG_PATH);
  const yours = options.userFile !== undefined && resolve(options.userFile) === file;
  return dir === resolve(options.home ?? homedir()) || yours ? undefined : file;
}

// `.git` is a directory in a clone and a file in a worktree or submodule: either marks a root.
async function kindOf(path: string): Promise<'file' | 'other' | undefined> {
  try {
    return (await stat(path)).isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}
