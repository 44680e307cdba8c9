// `epoch mcp call` shows the server's progress as a bar on a terminal, and nothing on a pipe. The
// terminal is a real pseudo-terminal (util-linux `script`), the command a real process, and the
// tool reports progress until the test releases it, so the bar is seen before the result, by event.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { epoch, startEpoch } from './epoch-process.js';

// Runs the command on a pseudo-terminal of its own: stdout and stderr are the terminal, which
// `script` copies to its stdout.
const ON_A_TERMINAL = [
  'bash',
  '-c',
  'exec script -qfec "$(printf "%q " "$@")" /dev/null',
  'on-a-terminal',
];

/** What the bar writes before each drawing: to the line's start, and clear it. */
const ERASE_LINE = '\r\x1b[K';

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-call-progress-'));
  file = join(dir, 'mcp.json');
  await writeFile(file, JSON.stringify({ servers: { work: fixtureServerEntry('progress') } }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function call(release: string): string[] {
  return [
    'mcp',
    'call',
    '--config',
    file,
    'work',
    'until_file',
    '--arg',
    `file=${release}`,
    '--arg',
    'every_ms=50',
  ];
}

it.skipIf(!existsSync('/usr/bin/script'))(
  'on a terminal: a line with the count and the server message while it runs, erased before the result',
  async () => {
    const release = join(dir, 'release-terminal');
    const run = startEpoch(
      call(release),
      { EPOCH_HOME: join(dir, 'home'), TERM: 'xterm' },
      ON_A_TERMINAL,
    );
    // Released however the test ends (a timeout too), so the call ends and epoch exits with its
    // server reaped: `script` does not pass a kill on to it.
    onTestFinished(async () => {
      await writeFile(release, '');
      await run.done;
    });
    // The third report or a later one, drawn over an earlier one in place (reports come every
    // 50 ms, the line is redrawn at most every TOOL_REDRAW_MS with the latest).
    await run.printed(new RegExp(`${ERASE_LINE.replace('[', '\\[')}(?:[3-9]|\\d{2,})  waiting`));
    await writeFile(release, '');
    const done = await run.done;
    expect(done.code).toBe(0);
    const after = done.out.slice(done.out.lastIndexOf(ERASE_LINE));
    // The last thing drawn is the erase; the result follows on a clean line.
    expect(after.startsWith(ERASE_LINE)).toBe(true);
    expect(after).toContain('released');
    expect(after).not.toContain('waiting');
  },
);

it.skipIf(!existsSync('/usr/bin/script'))(
  'on a terminal, a flood of reports: a few lines drawn, not one per report',
  async () => {
    const reports = 20_000;
    const run = startEpoch(
      ['mcp', 'call', '--config', file, 'work', 'flood', '--arg', `reports=${reports}`],
      { EPOCH_HOME: join(dir, 'home'), TERM: 'xterm' },
      ON_A_TERMINAL,
    );
    const done = await run.done;
    expect(done.code).toBe(0);
    expect(done.out).toContain(`flooded ${reports}`);
    // Drawn at most every TOOL_REDRAW_MS, and only when the text changed: one line per report
    // (20,000 erases and some 900 kB) was what a terminal got.
    const drawn = done.out.split(ERASE_LINE).length - 1;
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(reports / 20);
    expect(done.out.length).toBeLessThan(100_000);
  },
);

it('on a pipe: the result only, no progress drawn', async () => {
  // Reports every 50 ms for half a second: drawn, they would be in the output.
  const run = await epoch(
    [
      'mcp',
      'call',
      '--config',
      file,
      'work',
      'tick',
      '--arg',
      'every_ms=50',
      '--arg',
      'for_ms=500',
    ],
    { EPOCH_HOME: join(dir, 'home'), TERM: 'xterm' },
  );
  expect(run.code).toBe(0);
  expect(run.out).toMatch(/ticked \d+ times/);
  expect(run.out + run.err).not.toContain('\x1b');
});
