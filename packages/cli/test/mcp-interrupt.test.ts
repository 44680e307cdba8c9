// Ctrl-C and SIGTERM to a real `epoch` process, with the worst kind of server behind it: launched
// through a shell, ignoring the end of stdin and SIGTERM, with a grandchild in its group and a child
// that escaped it with setsid. Whatever epoch is doing — waiting for the server to start, or for a
// tool call — it exits 130 and not one of those processes is left. A call that is interrupted is
// cancelled on the server first (notifications/cancelled with the call's id).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs, waitUntil } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEpoch } from './epoch-process.js';
import { identify, isRunning, killAll, type ProcessIdentity, recordedPids } from './processes.js';

/** The fixture server's `cli` tools (echo, fail, image, slow, whoami): arguments after node. */
const TOOL_SERVER = fixtureServerArgs('cli');

let dir: string;
let pidFile: string;
let recordFile: string;
let seen: ProcessIdentity[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-interrupt-'));
  pidFile = join(dir, 'pids');
  recordFile = join(dir, 'record');
  seen = [];
});

afterEach(async () => {
  killAll(seen);
  await rm(dir, { recursive: true, force: true });
});

/** A config whose one server is the hostile fixture behind `/bin/sh -c` (the shell stays: `; :`). */
async function hostileConfig(...flags: string[]): Promise<string> {
  const file = join(dir, 'mcp.json');
  const line = [process.execPath, ...TOOL_SERVER, '--hostile', ...flags]
    .map((w) => `'${w}'`)
    .join(' ');
  await writeFile(
    file,
    JSON.stringify({
      servers: {
        hostile: {
          command: '/bin/sh',
          args: ['-c', `${line}; :`],
          env: { PID_FILE: pidFile, RECORD_FILE: recordFile },
          connect_timeout: 60,
        },
      },
    }),
  );
  return file;
}

/** The server and both helpers have recorded themselves (3 pids); remembered for the cleanup. */
async function serverTreeUp(): Promise<ProcessIdentity[]> {
  await waitUntil(() => recordedPids(pidFile).length >= 3, 'the server and its two helpers');
  const tree = recordedPids(pidFile).flatMap((pid) => identify(pid) ?? []);
  seen.push(...tree);
  return tree;
}

async function records(): Promise<
  { method?: string; id?: number; params?: { requestId?: number } }[]
> {
  const text = await readFile(recordFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('an interrupted epoch', () => {
  it('Ctrl-C during a tool call: the call is cancelled on the server, exit 130, no process left', async () => {
    const file = await hostileConfig();
    const run = startEpoch(['mcp', 'call', 'hostile', 'slow', '--config', file]);
    const tree = await serverTreeUp();
    expect(tree).toHaveLength(3);
    await waitUntil(
      async () => (await records()).some(({ method }) => method === 'tools/call'),
      'the tools/call to reach the server',
    );
    run.child.kill('SIGINT');
    const { code } = await run.done;

    expect(code).toBe(130);
    const received = await records();
    const call = received.find(({ method }) => method === 'tools/call');
    expect(
      received.some(
        ({ method, params }) =>
          method === 'notifications/cancelled' && params?.requestId === call?.id,
      ),
    ).toBe(true);
    expect(tree.filter(isRunning)).toEqual([]);
  });

  it('Ctrl-C while the server is still starting: exit 130, no process left', async () => {
    const file = await hostileConfig('--never-start');
    const run = startEpoch(['mcp', 'status', '--config', file]);
    const tree = await serverTreeUp();
    run.child.kill('SIGINT');
    const { code, out } = await run.done;
    expect(code).toBe(130);
    // It stopped waiting: the 60 s connect_timeout was not what ended it.
    expect(out).toBe('');
    expect(tree.filter(isRunning)).toEqual([]);
  });

  it('SIGTERM during a call: exit 130, no process left', async () => {
    const file = await hostileConfig();
    const run = startEpoch(['mcp', 'call', 'hostile', 'slow', '--config', file]);
    const tree = await serverTreeUp();
    await waitUntil(
      async () => (await records()).some(({ method }) => method === 'tools/call'),
      'the tools/call to reach the server',
    );
    run.child.kill('SIGTERM');
    expect((await run.done).code).toBe(130);
    expect(tree.filter(isRunning)).toEqual([]);
  });
});
