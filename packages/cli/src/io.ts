// Where a command writes. Commands take this instead of touching process.stdout so tests can run
// them in-process and read exactly what a person would see.
import { openInBrowser } from '@epoch-agent/plugin-mcp';

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Width of the terminal `out` writes to; undefined when it is not a terminal (a pipe, a file). */
  readonly columns?: number | undefined;
  /**
   * Opens a URL in the user's browser (`epoch mcp login`); absent: none is opened, the URL is only
   * printed. Tests pass an HTTP client that follows the login pages like a browser would.
   */
  readonly openUrl?: ((url: string) => Promise<void>) | undefined;
}

export const processIo: CliIo = {
  openUrl: openInBrowser,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  get columns() {
    return process.stdout.isTTY ? process.stdout.columns : undefined;
  },
};

/** Exit codes: 0 all good, 1 the input had errors, 2 the command line itself was wrong. */
export type ExitCode = 0 | 1 | 2;
