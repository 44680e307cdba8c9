// What a fresh Node process loads: `node <args>` run with the module-log preload, for tests that
// prove an entry point or a command leaves something unloaded (the SDK, a schema library, a web
// framework) until it is needed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULE_LOG = fileURLToPath(new URL('../module-log.mjs', import.meta.url));

export interface LoadedModules {
  /** The URL of every ES module the process loaded, in load order. */
  readonly urls: readonly string[];
  /**
   * When each of `urls` began to load, in milliseconds since the epoch (`performance.timeOrigin +
   * performance.now()`, comparable with the same clock read in the process).
   */
  readonly loadedAt: readonly number[];
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <args>` to its end in `cwd` and says which ES modules it loaded. */
export function modulesLoadedBy(
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): LoadedModules {
  const dir = mkdtempSync(join(tmpdir(), 'epoch-module-log-'));
  try {
    const log = join(dir, 'modules.json');
    const run = spawnSync(process.execPath, ['--import', MODULE_LOG, ...args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), EPOCH_MODULE_LOG: log },
      encoding: 'utf8',
    });
    let loads: { url: string; at: number }[];
    try {
      loads = JSON.parse(readFileSync(log, 'utf8')) as { url: string; at: number }[];
    } catch {
      throw new Error(
        `node ${args.join(' ')} wrote no module log (exit ${run.status}): ${run.stderr}`,
      );
    }
    return {
      urls: loads.map(({ url }) => url),
      loadedAt: loads.map(({ at }) => at),
      status: run.status,
      stdout: run.stdout,
      stderr: run.stderr,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
