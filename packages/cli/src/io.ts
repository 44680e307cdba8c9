// Where a command writes. Commands take this instead of touching process.stdout so tests can run
// them in-process and read exactly what a person would see.
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
};

/** Exit codes: 0 all good, 1 the input had errors, 2 the command line itself was wrong. */
export type ExitCode = 0 | 1 | 2;
