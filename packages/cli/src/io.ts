// Where a command writes and what it is told from outside. Commands take this instead of touching
// process.stdout so tests can run them in-process and read exactly what a person would see.

export interface CliIo {
  readonly out: (text: string) => void;
  /** Errors, and the live progress lines on a terminal: `out` stays what a pipe wants. */
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Width of the terminal `out` writes to; undefined when it is not a terminal (a pipe, a file). */
  readonly columns?: number | undefined;
  /** `err` is a terminal: progress lines are drawn (and redrawn) there. */
  readonly errIsTerminal?: boolean;
  /**
   * Opens a URL in the user's browser (`epoch mcp login`); absent: none is opened, the URL is only
   * printed. Tests pass an HTTP client that follows the login pages like a browser would.
   */
  readonly openUrl?: ((url: string) => Promise<void>) | undefined;
  /**
   * Asks a person a question (on stderr) and resolves with the line they type; undefined at the
   * end of input or on Ctrl-C. Absent when stdin or stderr is not a terminal: then nothing is
   * asked, ever (see approval.ts).
   */
  readonly ask?:
    | ((question: string, options?: AskOptions) => Promise<string | undefined>)
    | undefined;
  /**
   * Aborted at Ctrl-C or SIGTERM: the command stops what it waits for (a tool call is cancelled on
   * the server), every server is closed with its process tree, and the exit code is 130.
   */
  readonly signal: AbortSignal;
}

export interface AskOptions {
  /** The answer is a secret: typed unseen, the terminal echoes nothing (ask-secret.ts). */
  readonly secret?: boolean;
  /** Aborted when the question no longer matters: the answer is then undefined, as on Ctrl-C. */
  readonly signal?: AbortSignal;
}

/** The process's own streams and environment; `signal` is from interruptSignal(). */
export function processIo(signal: AbortSignal): CliIo {
  return {
    // The runtime loads with the command that logs in, not with every command.
    openUrl: async (url) => (await import('@epoch-agent/runtime')).openInBrowser(url),
    // A stream whose reader has gone (closed-output.ts) takes nothing more.
    out: (text) => void (process.stdout.writable && process.stdout.write(text)),
    err: (text) => void (process.stderr.writable && process.stderr.write(text)),
    env: process.env,
    get columns() {
      return process.stdout.isTTY ? process.stdout.columns : undefined;
    },
    errIsTerminal: process.stderr.isTTY === true,
    // Loaded when a question is asked: readline is for the few commands that ask one.
    ...(process.stdin.isTTY === true && process.stderr.isTTY === true
      ? {
          ask: async (question: string, options: AskOptions = {}) => {
            const asked =
              options.signal === undefined ? signal : AbortSignal.any([signal, options.signal]);
            return options.secret === true
              ? (await import('./ask-secret.js')).askHidden(question, asked)
              : (await import('./ask.js')).askOnTerminal(question, asked);
          },
        }
      : {}),
    signal,
  };
}

/**
 * Whether `out` may be coloured: it is a terminal that shows colour (not TERM=dumb, which prints
 * the codes as text), and NO_COLOR (https://no-color.org) is unset or "", as for the progress lines.
 */
export function outTakesColour(io: CliIo): boolean {
  return io.columns !== undefined && io.env.TERM !== 'dumb' && (io.env.NO_COLOR ?? '') === '';
}

/**
 * Fixed, so scripts can branch on them:
 * 0 done; 1 it ran and failed (a tool reported an error, a config has errors, a server is down);
 * 2 the command line is wrong (unknown command or server, bad option or value); 3 the server needs
 * `epoch mcp login`; 4 the server cannot be reached; 130 interrupted (Ctrl-C, SIGTERM); 141 stdout's
 * reader left before the output ended (`| head`), as a shell reports ls or git cut off there.
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  needsLogin: 3,
  unreachable: 4,
  interrupted: 130,
  outputClosed: 141,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
