// A project's .epoch/mcp.json through the real binary, its output a pipe: `epoch mcp status` run in
// the project asks nothing, lists the project's server as waiting for approval with the command
// that approves it, and starts nothing of it — the fixture records every start in its PID_FILE and
// carries a tag on its command line, and neither is ever seen — while the user's own server in the
// same run starts (the same record, seen to work).
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epochIn } from './epoch-process.js';
import { identify, killAll, processesWith, recordedPids } from './processes.js';

let root: string;
let env: Record<string, string>;
let project: string;
let pidFiles: string[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'epoch-cli-project-approval-'));
  // EPOCH_HOME and HOME apart from the project, which is a repository of its own.
  env = { EPOCH_HOME: join(root, 'epoch-home'), HOME: join(root, 'home') };
  await mkdir(env.EPOCH_HOME as string, { recursive: true });
  await mkdir(env.HOME as string, { recursive: true });
  project = join(root, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  pidFiles = [];
});
afterEach(async () => {
  // A failed test must leave no server behind.
  killAll(
    pidFiles.flatMap(recordedPids).flatMap((pid) => {
      const running = identify(pid);
      return running === undefined ? [] : [running];
    }),
  );
  await rm(root, { recursive: true, force: true });
});

/** A stdio entry of the fixture's `pid` tools that records each start of it in its own file. */
function recorded(...args: string[]) {
  const pidFile = join(root, `pids-${randomUUID()}`);
  pidFiles.push(pidFile);
  return {
    pidFile,
    entry: {
      command: process.execPath,
      args: [...fixtureServerArgs('pid'), ...args],
      env: { PID_FILE: pidFile },
    },
  };
}

describe("a project's server, before it is approved", () => {
  it('epoch mcp status in a pipe starts nothing of it, shows needsApproval and says the command to run', async () => {
    const tag = `--tag=${randomUUID()}`;
    const docs = recorded(tag);
    const mine = recorded();
    const file = join(project, '.epoch', 'mcp.json');
    await mkdir(join(project, '.epoch'));
    await writeFile(file, JSON.stringify({ servers: { docs: docs.entry } }, null, 2));
    await writeFile(
      join(env.EPOCH_HOME as string, 'mcp.json'),
      JSON.stringify({ servers: { mine: mine.entry } }, null, 2),
    );

    const status = await epochIn(project, ['mcp', 'status'], env);
    expect(status.out).toMatch(/^docs\s+project\s+stdio\s+needsApproval\s/m);
    expect(status.out).toContain('epoch mcp approve docs');
    expect(status.out).toMatch(/^mine\s+user\s+stdio\s+connected\s/m);
    expect(status.out).not.toContain('mcp__docs__');
    // Waiting for approval is not a healthy status: a script sees it in the exit code.
    expect(status.code).toBe(1);
    expect(recordedPids(docs.pidFile)).toEqual([]);
    expect(await processesWith(tag)).toEqual([]);
    expect(recordedPids(mine.pidFile)).toHaveLength(1);

    const json = await epochIn(project, ['mcp', 'status', '--json'], env);
    expect(JSON.parse(json.out)).toMatchObject({
      projectFile: file,
      servers: expect.arrayContaining([
        expect.objectContaining({
          name: 'docs',
          source: 'project',
          state: 'needsApproval',
          reason: 'new',
          launch: expect.objectContaining({
            transport: 'stdio',
            command: [process.execPath, ...docs.entry.args],
            envNames: ['PID_FILE'],
          }),
        }),
      ]),
    });
    expect(recordedPids(docs.pidFile)).toEqual([]);
    expect(await processesWith(tag)).toEqual([]);
  });
});
