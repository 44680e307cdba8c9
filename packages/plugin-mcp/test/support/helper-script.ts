// A headers helper as a person writes one (README "Headers from a command"): a node script in the
// test's temp dir, run as a real child process, that prints the headers the test gave it and
// writes down why it was run (EPOCH_MCP_HEADERS_REASON).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface HelperScript {
  /** The entry's `headers_helper`. */
  readonly words: readonly string[];
  /** What it prints from now on; undefined: nothing, it exits with code 3. */
  print(headers: Readonly<Record<string, string>> | undefined): Promise<void>;
  /** The reason of each run so far, in order. */
  runs(): Promise<string[]>;
}

export async function helperScript(dir: string): Promise<HelperScript> {
  const script = join(dir, 'headers-helper.cjs');
  const headers = join(dir, 'headers.json');
  const log = join(dir, 'headers-helper-runs.log');
  await writeFile(
    script,
    `const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(log)}, process.env.EPOCH_MCP_HEADERS_REASON + '\\n');
if (!fs.existsSync(${JSON.stringify(headers)})) process.exit(3);
process.stdout.write(fs.readFileSync(${JSON.stringify(headers)}, 'utf8'));
`,
  );
  return {
    words: [process.execPath, script],
    print: (given) =>
      given === undefined
        ? rm(headers, { force: true })
        : writeFile(headers, JSON.stringify(given)),
    runs: async () =>
      (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((line) => line !== ''),
  };
}
