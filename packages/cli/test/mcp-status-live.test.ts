// `epoch mcp status` while its servers start: on a terminal each row is printed the moment its
// server settles, above the progress lines of the ones still starting; in a pipe and with --json
// everything is printed once they all have. Real fixture servers; one of them answers only when
// the test writes its gate file, so the test, not a timer, decides when it settles.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, type CliWrite, type RunCliOptions, runCli } from './run-cli.js';

const ESC = String.fromCharCode(27);
/** The progress lines' erase: back `lines` lines, and clear below. */
const erase = (lines: string) => new RegExp(`${ESC}\\[${lines}F${ESC}\\[J`);
const HEADER = /^NAME\s+SOURCE\s+TRANSPORT\s+STATE\s+PROTOCOL\s+TOOLS\n$/;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-status-live-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server that answers initialize once `gate()` has written its file; `fast`, at once. */
function gatedServer() {
  const file = join(dir, `gate-${randomUUID()}`);
  // The gate decides, never the connect_timeout.
  const entry = { ...fixtureServerEntry('cli', `--start-when=${file}`), connect_timeout: 600 };
  return { entry, open: () => writeFile(file, '') };
}
const fast = () => fixtureServerEntry('cli');
/** Exits at start, saying so on stderr: the file it checks for is always there. */
const broken = () => fixtureServerEntry('pid', `--exit-at-start-if=${dir}`);

async function configFile(servers: Record<string, unknown>): Promise<string> {
  const file = join(dir, `mcp-${randomUUID()}.json`);
  await writeFile(file, JSON.stringify({ servers }, null, 2));
  return file;
}

/** `epoch mcp status` whose writes the test watches as they are made. */
function watchStatus(file: string, options: RunCliOptions, ...flags: string[]) {
  const writes: CliWrite[] = [];
  const checks = new Set<() => void>();
  const done: Promise<CliRun> = runCli(['mcp', 'status', '--config', file, ...flags], {
    env: { NO_COLOR: '1' },
    ...options,
    onWrite: (write) => {
      writes.push(write);
      for (const check of checks) check();
    },
  });
  /** The first thing `probe` finds in the writes, now or after a later one; fails if none comes. */
  const until = <T>(probe: () => T | undefined, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = probe();
        if (found === undefined) return;
        checks.delete(check);
        resolve(found);
      };
      checks.add(check);
      check();
      void done.then(() => {
        if (checks.delete(check)) {
          reject(new Error(`the command ended before ${what}: ${JSON.stringify(writes)}`));
        }
      }, reject);
    });
  /** The index of the first write to `stream` at or after `from` that matches. */
  const find = (stream: CliWrite['stream'], pattern: RegExp, from = 0): number | undefined => {
    const index = writes.findIndex(
      (w, i) => i >= from && w.stream === stream && pattern.test(w.text),
    );
    return index < 0 ? undefined : index;
  };
  return { writes, done, until, find };
}

/** How many progress lines were on the screen as each write to `out` was made, and at the end. */
function linesOnScreen(writes: readonly CliWrite[]): { atRows: number[]; atEnd: number } {
  let drawn = 0;
  const atRows: number[] = [];
  for (const { stream, text } of writes) {
    if (stream === 'out') atRows.push(drawn);
    else drawn += (text.match(/\n/g) ?? []).length - Number(erase('(\\d+)').exec(text)?.[1] ?? 0);
  }
  return { atRows, atEnd: drawn };
}

/** Each block of progress lines drawn on `err` and erased since; the one on screen may be half drawn. */
function erasedFrames(writes: readonly CliWrite[]): string[] {
  const err = writes.flatMap(({ stream, text }) => (stream === 'err' ? [text] : [])).join('');
  return err.split(erase('\\d+')).slice(0, -1);
}

const progressLine = (server: string) => new RegExp(`${server} +connecting… \\d+\\.\\d s\\n`);

describe('epoch mcp status on a terminal', () => {
  const terminal = { columns: 80, errIsTerminal: true };

  it('prints a fast server row at once, while the slow one is still drawn as starting below it; then the slow row and the rest', async () => {
    const gated = gatedServer();
    const file = await configFile({ slow: gated.entry, fast: fast() });
    const run = watchStatus(file, terminal);

    const fastRow = await run.until(
      () => run.find('out', /^fast\s+user\s+stdio\s+connected\s+2025-11-25\s+5\n$/),
      'the fast row',
    );
    // The slow server has not settled: no row, and its progress line drawn again under the row.
    await run.until(
      () => run.find('err', progressLine('slow'), fastRow),
      'the slow progress line under the fast row',
    );
    expect(run.find('out', /^slow/m)).toBeUndefined();
    const opened = run.writes.length;
    await gated.open();

    const { code, out, err } = await run.done;
    const slowRow = run.find('out', /^slow\s+user\s+stdio\s+connected\s+2025-11-25\s+5\n$/);
    expect(slowRow).toBeGreaterThanOrEqual(opened);
    expect(code).toBe(0);
    // The header first, printed before any server settled; the rows in the order they settled.
    expect(run.writes[0]).toEqual({ stream: 'out', text: expect.stringMatching(HEADER) });
    const table = out.split('\n').slice(0, 3);
    expect(table.slice(1).map((line) => line.split(' ')[0])).toEqual(['fast', 'slow']);
    // One layout for all of them, though the rows were printed apart.
    const starts = (line: string) => [...line.matchAll(/\S+/g)].map(({ index }) => index);
    for (const line of table) expect(starts(line)).toEqual(starts(table[0] ?? ''));
    // Then every server's tools, in the config's order, and the summary.
    expect(out.indexOf('Tools of slow (5):')).toBeGreaterThan(out.indexOf(table[2] ?? '?'));
    expect(out.indexOf('Tools of fast (5):')).toBeGreaterThan(out.indexOf('Tools of slow (5):'));
    expect(out).toMatch(/\n\nAll 2 MCP servers connected\.\n$/);
    // No row was written over progress lines: they were erased first, and are gone at the end.
    const screen = linesOnScreen(run.writes);
    expect(screen.atRows.filter((lines) => lines !== 0)).toEqual([]);
    expect(screen.atEnd).toBe(0);
    expect(err).toMatch(progressLine('slow'));
  });

  it('prints a failed server row with its reason under it at once, while another still starts', async () => {
    const gated = gatedServer();
    const file = await configFile({ slow: gated.entry, broken: broken() });
    const run = watchStatus(file, terminal);

    const failed = await run.until(
      () =>
        run.find(
          'out',
          /^broken\s+user\s+stdio\s+failed\s+-\s+0\n {2}MCP server "broken".*\n {2}stderr \(last lines\):\n {4}dying: the test asked for it\n$/,
        ),
      'the failed row with its reason',
    );
    await run.until(() => run.find('err', progressLine('slow'), failed), 'the slow progress line');
    expect(run.find('out', /^slow/m)).toBeUndefined();
    await gated.open();

    const { code, out } = await run.done;
    expect(code).toBe(1);
    expect(out).toMatch(/^slow\s+user\s+stdio\s+connected\s+2025-11-25\s+5$/m);
    expect(out).toContain('1 of 2 MCP servers connected; not connected: broken (failed).');
    expect(linesOnScreen(run.writes).atRows.filter((lines) => lines !== 0)).toEqual([]);
  });
});

describe('epoch mcp status in a pipe and with --json: printed once every server has settled', () => {
  it('stdout a pipe, stderr a terminal: progress lines as ever, the table in config order after the last server settled', async () => {
    const gated = gatedServer();
    const file = await configFile({ slow: gated.entry, fast: fast() });
    const run = watchStatus(file, { errIsTerminal: true });

    // The fast server has settled: a whole frame of progress lines without it, with the slow one.
    await run.until(
      () =>
        erasedFrames(run.writes).find(
          (frame) => progressLine('slow').test(frame) && !/fast/.test(frame),
        ),
      'a progress frame with the slow server only',
    );
    expect(run.find('out', /./)).toBeUndefined();
    const opened = run.writes.length;
    await gated.open();

    const { code, out } = await run.done;
    expect(code).toBe(0);
    expect(run.find('out', /./)).toBeGreaterThanOrEqual(opened);
    expect(out).toMatch(
      /^NAME\s+SOURCE\s+TRANSPORT\s+STATE\s+PROTOCOL\s+TOOLS\nslow\s.*connected.*\nfast\s.*connected.*\n/,
    );
  });

  it('--json on a terminal: one write, at the end', async () => {
    const file = await configFile({ fast: fast(), broken: broken() });
    const run = watchStatus(file, { columns: 80, errIsTerminal: true }, '--json');
    const { code, out, err } = await run.done;
    expect(code).toBe(1);
    expect(err).toBe('');
    expect(run.writes).toEqual([{ stream: 'out', text: out }]);
    expect(
      JSON.parse(out).servers.map(({ name, state }: { name: string; state: string }) => [
        name,
        state,
      ]),
    ).toEqual([
      ['fast', 'connected'],
      ['broken', 'failed'],
    ]);
  });
});
