// `epoch mcp status | head`: a stdout whose reader has gone. Through the real binary and a real
// pipe: the command ends quietly (no stack, no "Unhandled 'error' event") with 141, as a shell
// reports ls or git cut off the same way, and still reaps every server it started — here one that
// ignores SIGTERM and the end of its stdin and starts helpers that do the same.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEpoch } from './epoch-process.js';
import { identify, isRunning, killAll, type ProcessIdentity, recordedPids } from './processes.js';

let dir: string;
let started: ProcessIdentity[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-closed-output-'));
});
afterEach(async () => {
  killAll(started);
  started = [];
  await rm(dir, { recursive: true, force: true });
});

describe('a stdout closed by its reader', () => {
  it('ends the command quietly with 141 and leaves no server process', async () => {
    const file = join(dir, 'mcp.json');
    const pids = join(dir, 'pids');
    const hostile = { ...fixtureServerEntry('pid', '--hostile'), env: { PID_FILE: pids } };
    const good = fixtureServerEntry('pid');
    await writeFile(file, JSON.stringify({ servers: { hostile, good } }));
    const run = startEpoch(['mcp', 'status', '--config', file], { EPOCH_HOME: join(dir, 'home') });
    // The reader leaves before the first line: every line the command writes meets a closed pipe.
    run.child.stdout?.destroy();
    const { code, signal } = await run.done;
    started = recordedPids(pids).flatMap((pid) => identify(pid) ?? []);
    // The hostile server and both its helpers were started, and none of them is left.
    expect(new Set(recordedPids(pids)).size).toBe(3);
    expect(started.filter(isRunning)).toEqual([]);
    expect(run.err()).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(run.err()).toBe('');
    expect({ code, signal }).toEqual({ code: 141, signal: null });
  });
});
