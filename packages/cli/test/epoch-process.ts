// The `epoch` command as a person runs it: a real process of the built bin (packages/cli/bin/epoch.js,
// what node_modules/.bin/epoch links to), with its own environment, stdout, stderr and exit code.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const EPOCH_BIN = fileURLToPath(new URL('../bin/epoch.js', import.meta.url));

export interface EpochRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

export interface EpochProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  out(): string;
  err(): string;
  /** Resolves when it has exited. */
  readonly done: Promise<EpochRun>;
  /**
   * Resolves with the first match of `pattern` in stdout, as soon as it is printed; rejects, with
   * what was printed, when the process ends without printing it.
   */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
}

/**
 * Starts `epoch <argv>`; `env` is added to this process's environment (EPOCH_HOME included).
 * `launcher` is a command that runs node in its stead with what follows as its arguments (a shell
 * that lowers `ulimit -n` and execs, `setpriv` as another user). `cwd`: the directory it runs in
 * (default this process's).
 */
export function startEpoch(
  argv: readonly string[],
  env: Record<string, string> = {},
  launcher: readonly string[] = [],
  cwd?: string,
): EpochProcess {
  const [file = '', ...args] = [...launcher, process.execPath, EPOCH_BIN, ...argv];
  const child = spawn(file, args, {
    ...(cwd === undefined ? {} : { cwd }),
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let ended = false;
  const waiting = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const check of waiting) check();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const done = new Promise<EpochRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      ended = true;
      for (const check of waiting) check();
      resolve({ code, signal, out, err });
    });
  });
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(out);
        if (found === null && !ended) return;
        waiting.delete(check);
        if (found !== null) resolve(found);
        else reject(new Error(`epoch ended without printing ${pattern}: ${out} ${err}`));
      };
      waiting.add(check);
      check();
    });
  return { child, out: () => out, err: () => err, done, printed };
}

/** Runs `epoch <argv>` to its end. */
export function epoch(
  argv: readonly string[],
  env: Record<string, string> = {},
  launcher: readonly string[] = [],
): Promise<EpochRun> {
  return startEpoch(argv, env, launcher).done;
}

/** Runs `epoch <argv>` to its end in the directory `cwd` (a project's, for its .epoch/mcp.json). */
export function epochIn(
  cwd: string,
  argv: readonly string[],
  env: Record<string, string> = {},
): Promise<EpochRun> {
  return startEpoch(argv, env, [], cwd).done;
}
