// `epoch mcp reconnect` of a server that can never work, through the real binary and real pipes:
// each failed try is on stderr while the series still runs (not all at the end), and the end says
// what failed and what to do with this command line — not what an agent's next tool call does.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEpoch } from './epoch-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-reconnect-tries-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('epoch mcp reconnect of a server that never connects', () => {
  it('tells each failed try as it happens, and ends with what to do', async () => {
    const file = join(dir, 'mcp.json');
    const dying = {
      command: process.execPath,
      args: ['-e', 'console.error("cannot open the database"); process.exit(3)'],
    };
    await writeFile(file, JSON.stringify({ servers: { dying } }));
    const run = startEpoch(['mcp', 'reconnect', 'dying', '--config', file], {
      EPOCH_HOME: join(dir, 'home'),
    });
    try {
      await expect
        .poll(() => run.err(), { timeout: 20_000 })
        .toMatch(
          /^dying: try 1 failed; trying again in \d+\.\d s \(retry 1 of \d+\)\n {2}MCP server "dying" failed to connect/,
        );
      // The series is still running: the line came as the try failed, not with the result.
      expect(run.child.exitCode).toBe(null);
      expect(run.out()).toBe('');
    } finally {
      if (run.child.exitCode === null) await run.done;
    }
    const { code, out, err } = await run.done;
    expect(code).toBe(4);
    expect(err).toMatch(/try 3 failed; trying again in \d+\.\d s \(retry 3 of 3\)\n$/);
    expect(out).toMatch(/^dying: failed; it did not connect in 4 tries\.\n/);
    expect(out).toContain('cannot open the database');
    expect(out).toContain(
      `Fix its entry in ${file} ("epoch mcp get dying" shows how epoch reads it), then run "epoch mcp reconnect dying" again.`,
    );
    expect(out + err).not.toMatch(/next tool call|new series/);
  }, 60_000);
});
