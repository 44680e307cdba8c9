// `--scope` / `-s`, claude's and gemini's habit, through the real binary: exit 2 with an answer
// that is true — one user file per profile, chosen by EPOCH_PROFILE (or --config) — and following
// that answer puts the server in the profile's file.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-cli-scope-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe('--scope', () => {
  it('is answered with how epoch picks its file, and nothing is written', async () => {
    const server = [process.execPath, ...fixtureServerArgs('pid')];
    for (const scope of [['-s', 'user'], ['--scope', 'project'], ['--scope=local']]) {
      const run = await epoch(['mcp', 'add', ...scope, 'pids', ...server], { EPOCH_HOME: home });
      expect(run.code).toBe(2);
      expect(run.err).toContain('epoch has no scopes');
      expect(run.err).toContain('EPOCH_PROFILE=<name>');
      expect(run.err).toContain('--config FILE');
    }
    const list = await epoch(['mcp', 'list', '-s', 'user'], { EPOCH_HOME: home });
    expect(list.code).toBe(2);
    expect(list.err).toContain('epoch has no scopes');
    expect(existsSync(join(home, 'mcp.json'))).toBe(false);

    // What the message says to do works: the profile's own file.
    const add = await epoch(['mcp', 'add', 'pids', ...server], {
      EPOCH_HOME: home,
      EPOCH_PROFILE: 'work',
    });
    expect(add.code, add.err).toBe(0);
    const file = join(home, 'profiles', 'work', 'mcp.json');
    expect(add.out).toContain(`to ${file}`);
    expect(JSON.parse(await readFile(file, 'utf8')).servers.pids.command).toBe(process.execPath);
    expect(existsSync(join(home, 'mcp.json'))).toBe(false);
  });
});
