// A stand-in for the desktop's URL opener: scripts named xdg-open and open (what epoch runs on
// Linux and macOS) in a directory to put first on PATH. Each records the arguments it was given,
// one per line, into a file of its own run, so a test reads exactly the command line that every
// local user could have read in `ps`.
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitUntil } from '@epoch-agent/testkit';

export interface FakeOpener {
  /** Put in the environment of `epoch`: PATH with the fake opener first. */
  readonly env: { readonly PATH: string };
  /** The argument lists of every run so far. */
  runs(): Promise<string[][]>;
  /** The argument list of the first run, once there is one. */
  firstRun(): Promise<string[]>;
}

export async function fakeOpener(dir: string): Promise<FakeOpener> {
  const bin = join(dir, 'opener-bin');
  const log = join(dir, 'opener-runs');
  await mkdir(log, { recursive: true });
  await mkdir(bin, { recursive: true });
  // Written aside and renamed: a run's file appears complete or not at all.
  const script = `#!/bin/sh\nout="${log}/run-$$"\nprintf '%s\\n' "$@" > "$out.tmp" && mv "$out.tmp" "$out"\n`;
  for (const name of ['xdg-open', 'open']) {
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  const runs = async () => {
    const files = (await readdir(log)).filter((name) => !name.endsWith('.tmp'));
    return Promise.all(
      files.map(async (name) => (await readFile(join(log, name), 'utf8')).split('\n').slice(0, -1)),
    );
  };
  return {
    env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
    runs,
    // The opener is another process that only leaves its log file: polled, there is no event.
    firstRun: () => waitUntil(async () => (await runs())[0], 'the opener to be run'),
  };
}
