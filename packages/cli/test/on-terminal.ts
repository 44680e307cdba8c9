// The built `epoch` in a pseudo-terminal (util-linux `script`): stdin, stdout and stderr are all its
// terminal, so it asks its questions; a test reads what the terminal showed and types answers.
import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';
import { EPOCH_BIN } from './epoch-process.js';

export interface TerminalRun {
  readonly child: ChildProcess;
  /** Everything the terminal showed so far (stdout and stderr together, as a person sees them). */
  seen(): string;
  /** Resolves with the exit code. */
  readonly done: Promise<number | null>;
}

/**
 * `epoch <argv>` on a terminal; `env` is added to this process's (NO_COLOR set). `script`: another
 * Node script to run there instead of epoch's bin (a test's own driver of one of its parts).
 */
export function onTerminal(
  argv: readonly string[],
  env: Record<string, string>,
  script = EPOCH_BIN,
): TerminalRun {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const line = [process.execPath, script, ...argv].map(quote).join(' ');
  const child = spawn('script', ['-qfec', line, '/dev/null'], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let seen = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    seen += chunk;
  });
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, seen: () => seen, done };
}

/** A person at `run`'s terminal: reads what it shows, in order, and types. */
export function personAt(run: TerminalRun) {
  let read = 0;
  return {
    /** Waits until `text` shows after what was already read, and reads past it. */
    async sees(text: string): Promise<void> {
      await expect
        .poll(() => run.seen().indexOf(text, read), { timeout: 30_000 })
        .toBeGreaterThanOrEqual(0);
      read = run.seen().indexOf(text, read) + text.length;
    },
    type(keys: string): void {
      run.child.stdin?.write(keys);
    },
  };
}
