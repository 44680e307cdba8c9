// Runs the `epoch` command in-process and hands back what a person would have seen.
import { type CliIo, type ExitCode, main } from '../src/index.js';

export interface CliRun {
  readonly code: ExitCode;
  readonly out: string;
  readonly err: string;
}

export interface RunCliOptions {
  readonly env?: Record<string, string>;
  /** Pretend `out` is a terminal this wide. */
  readonly columns?: number;
  /** The "browser" `epoch mcp login` opens its URL in. */
  readonly openUrl?: (url: string) => Promise<void>;
  /** Pretend `err` is a terminal: progress lines are drawn there. */
  readonly errIsTerminal?: boolean;
  /** Aborted: as Ctrl-C. */
  readonly signal?: AbortSignal;
  /** Told of every write as it is made, `out` and `err` in one order: to watch a run live. */
  readonly onWrite?: (write: CliWrite) => void;
}

export interface CliWrite {
  readonly stream: 'out' | 'err';
  readonly text: string;
}

export async function runCli(
  argv: readonly string[],
  options: RunCliOptions = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (text) => {
      out.push(text);
      options.onWrite?.({ stream: 'out', text });
    },
    err: (text) => {
      err.push(text);
      options.onWrite?.({ stream: 'err', text });
    },
    // The CLI finds its home through io.env, never process.env: hand it this test file's temp
    // EPOCH_HOME (test-setup/epoch-home.ts) unless the test names its own, so a command run without
    // --config never reads the real ~/.epoch.
    env: { EPOCH_HOME: process.env.EPOCH_HOME, ...options.env },
    columns: options.columns,
    openUrl: options.openUrl,
    errIsTerminal: options.errIsTerminal ?? false,
    signal: options.signal ?? new AbortController().signal,
  };
  const code = await main(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}
