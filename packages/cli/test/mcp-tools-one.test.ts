// `epoch mcp tools <name>` starts only the server it names, as `call` and `reconnect` do, through
// the real binary: a server that never answers initialize, beside it, is never even spawned.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-tools-one-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('epoch mcp tools <name>', () => {
  it('starts only the named server: a hung one beside it is never spawned', async () => {
    const file = join(dir, 'mcp.json');
    // Written by the hung server's process as it starts: the proof that it was spawned.
    const spawned = join(dir, 'hung-spawned');
    const hung = {
      ...fixtureServerEntry('pid', '--never-start'),
      env: { PID_FILE: spawned },
      // Only for the run that starts every server: this one waits for it to time out.
      connect_timeout: 2,
    };
    const good = fixtureServerEntry('pid', '--tool=ping');
    await writeFile(file, JSON.stringify({ servers: { hung, good } }));
    const env = { EPOCH_HOME: join(dir, 'home') };

    const run = await epoch(['mcp', 'tools', 'good', '--config', file], env);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('mcp__good__ping');
    expect(run.out).not.toContain('hung');
    expect(existsSync(spawned)).toBe(false);

    // The fixture does write it when it is started: without a name, every server starts.
    const all = await epoch(['mcp', 'tools', '--config', file], env);
    expect(existsSync(spawned)).toBe(true);
    expect(all.code).toBe(1);
  });
});
