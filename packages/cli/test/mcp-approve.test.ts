// Approving a server that waits for it, through the real `epoch` binary in real processes: a
// plugin's server (which starts only once approved) in a pipe is never asked about and never
// started, and the output names the command to run; `approve` shows the launch and starts it;
// `revoke` makes it wait again; on a terminal (a pseudo-terminal, util-linux `script`) `status`
// asks [y/N] with the launch shown, no by default. No env value ever reaches the output.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EpochRun, epoch } from './epoch-process.js';
import { onTerminal as onTerminalIn } from './on-terminal.js';
import { processesWith, recordedPids } from './processes.js';

const SECRET = `sekret-${randomUUID()}`;
const SERVER = 'tp__srv';

let dir: string;
let home: string;
let config: string;
let pidFile: string;
/** On the server's command line: finds any process of it in /proc. */
let tag: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-approve-'));
  home = join(dir, 'home');
  config = join(home, 'mcp.json');
  pidFile = join(dir, 'pids');
  tag = `--tag=${randomUUID()}`;
  // A plugin's server: installing a plugin is not approving what it runs.
  await mkdir(join(home, 'plugins', 'tp'), { recursive: true });
  const srv = {
    command: process.execPath,
    args: [...fixtureServerArgs('cli'), tag],
    env: { PID_FILE: pidFile, API_TOKEN: SECRET },
  };
  await writeFile(join(home, 'plugins', 'tp', 'mcp.json'), JSON.stringify({ servers: { srv } }));
  await writeFile(config, '{ "servers": {} }\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `epoch mcp <args>` in a pipe, in this test's home. */
function mcp(...args: string[]): Promise<EpochRun> {
  return epoch(['mcp', ...args, '--config', config], { EPOCH_HOME: home });
}

async function expectNothingStarted(): Promise<void> {
  expect(recordedPids(pidFile)).toEqual([]);
  expect(await processesWith(tag)).toEqual([]);
}

function expectNoSecret(...runs: readonly { out: string; err: string }[]): void {
  for (const run of runs) expect(run.out + run.err).not.toContain(SECRET);
}

describe('a server that waits for approval, in a pipe', () => {
  it('status never asks: it shows the state, what it would run and the command to run; nothing starts', async () => {
    const status = await mcp('status');
    expect(status.code).toBe(1);
    expect(status.err).toBe('');
    expect(status.out).toMatch(/^tp__srv\s+plugin\s+stdio\s+needsApproval\s+-\s+-$/m);
    expect(status.out).toContain('  not started: it has not been approved');
    expect(status.out).toContain(`    runs: ${process.execPath} `);
    expect(status.out).toContain(tag);
    expect(status.out).toContain('    env: API_TOKEN, PID_FILE (values not shown)');
    expect(status.out).toContain(`Approve it with "epoch mcp approve ${SERVER}"`);
    expect(status.out).toContain(`Not started until approved: ${SERVER}`);
    const json = await mcp('status', '--json');
    const [server] = JSON.parse(json.out).servers;
    expect(server).toMatchObject({
      name: SERVER,
      source: 'plugin',
      state: 'needsApproval',
      reason: 'new',
      tools: [],
      launch: { transport: 'stdio', envNames: ['API_TOKEN', 'PID_FILE'] },
    });
    expect(server.launch.command).toEqual([process.execPath, ...fixtureServerArgs('cli'), tag]);
    const call = await mcp('call', SERVER, 'echo', '--arg', 'text=hi');
    expect(call.code).toBe(2);
    expect(call.err).toContain(`MCP server "${SERVER}" waits for your approval of what it runs.`);
    expect(call.err).toContain(`epoch mcp approve ${SERVER}`);
    await expectNothingStarted();
    expectNoSecret(status, json, call);
  });

  it('approve asks only on a terminal: in a pipe it approves nothing without --yes', async () => {
    const refused = await mcp('approve', SERVER);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(
      `MCP server "${SERVER}" (plugin, ${join(home, 'plugins', 'tp', 'mcp.json')}):`,
    );
    expect(refused.out).toContain(`  runs: ${process.execPath} `);
    expect(refused.err).toContain('nothing was approved');
    expect(refused.err).toContain('add --yes');
    await expectNothingStarted();
    expect((await mcp('status')).out).toMatch(/^tp__srv\s+plugin\s+stdio\s+needsApproval/m);
    expectNoSecret(refused);
  });

  it('approve --yes starts it, status then connects it; revoke makes it wait again', async () => {
    const approved = await mcp('approve', SERVER, '--yes');
    expect(approved.err).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.out).toContain(`Approved. ${SERVER} is connected: `);
    const status = await mcp('status');
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^tp__srv\s+plugin\s+stdio\s+connected\s/m);
    const call = await mcp('call', SERVER, 'echo', '--arg', 'text=hi');
    expect([call.code, call.out]).toEqual([0, 'hi\n']);

    const revoked = await mcp('revoke', SERVER);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toBe(
      `Revoked: ${SERVER} does not start until it is approved again ("epoch mcp approve ${SERVER}").\n`,
    );
    const before = recordedPids(pidFile).length;
    // `tools` reads the schema cache, which holds the tools of the approved run: revoked, the
    // server is not offered from it either.
    const again = await mcp('tools', '--json');
    expect(again.code).toBe(1);
    const [held] = JSON.parse(again.out).servers;
    expect(held).toMatchObject({ state: 'needsApproval', reason: 'new', tools: [] });
    expect(recordedPids(pidFile)).toHaveLength(before);
    expectNoSecret(approved, status, call, revoked, again);
  });

  it('list says which servers wait, without starting any; an approved one changed waits again', async () => {
    const list = await mcp('list');
    expect(list.code).toBe(0);
    expect(list.out).toContain(
      `Waiting for approval, not started until then: ${SERVER} (never approved). "epoch mcp approve <name>" shows what one runs and asks.`,
    );
    expect(JSON.parse((await mcp('list', '--json')).out).servers[0]).toMatchObject({
      name: SERVER,
      needsApproval: 'new',
    });
    expect((await mcp('approve', SERVER, '--yes')).code).toBe(0);
    const approved = await mcp('list', '--json');
    expect(JSON.parse(approved.out).servers[0]).not.toHaveProperty('needsApproval');
    expect((await mcp('list')).out).not.toContain('Waiting for approval');
    // The same server with one more argument: another program as far as an approval goes.
    const plugin = join(home, 'plugins', 'tp', 'mcp.json');
    const srv = {
      command: process.execPath,
      args: [...fixtureServerArgs('cli'), tag, '--tag=changed'],
      env: { PID_FILE: pidFile, API_TOKEN: SECRET },
    };
    await writeFile(plugin, JSON.stringify({ servers: { srv } }));
    const before = recordedPids(pidFile).length;
    expect((await mcp('list')).out).toContain(`${SERVER} (changed since approved)`);
    const status = await mcp('status');
    expect(status.code).toBe(1);
    expect(status.out).toContain('  not started: it changed since it was approved');
    expect(status.out).toContain(`${tag} --tag=changed`);
    expect(recordedPids(pidFile)).toHaveLength(before);
    expectNoSecret(list, approved, status);
  });

  it('status --yes approves what it starts, for scripts', async () => {
    const status = await mcp('status', '--yes');
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^tp__srv\s+plugin\s+stdio\s+connected\s/m);
    expect((await mcp('status')).code).toBe(0);
  });
});

/** `epoch <argv>` in a pseudo-terminal: stdin, stdout and stderr are all its terminal. */
function onTerminal(argv: readonly string[]) {
  return onTerminalIn(argv, { EPOCH_HOME: home });
}

describe('a server that waits for approval, on a terminal', () => {
  it('status asks [y/N] with the launch shown: no (the default) starts nothing, y starts it', async () => {
    const first = onTerminal(['mcp', 'status', '--config', config]);
    try {
      await expect.poll(first.seen, { timeout: 20_000 }).toContain('Start it? [y/N] ');
      expect(first.seen()).toContain(`MCP server "${SERVER}" (plugin, `);
      expect(first.seen()).toContain(`  runs: ${process.execPath} `);
      expect(first.seen()).toContain('  env: API_TOKEN, PID_FILE (values not shown)');
      first.child.stdin?.write('\n');
      expect(await first.done).toBe(1);
      expect(first.seen()).toContain(
        `Not started. Approve it later with "epoch mcp approve ${SERVER}".`,
      );
      expect(first.seen()).toMatch(/tp__srv\s+plugin\s+stdio\s+needsApproval/);
    } finally {
      first.child.kill();
    }
    await expectNothingStarted();

    const second = onTerminal(['mcp', 'status', '--config', config]);
    try {
      await expect.poll(second.seen, { timeout: 20_000 }).toContain('Start it? [y/N] ');
      second.child.stdin?.write('y\n');
      expect(await second.done).toBe(0);
      expect(second.seen()).toMatch(/tp__srv\s+plugin\s+stdio\s+connected/);
    } finally {
      second.child.kill();
    }
    expect(recordedPids(pidFile).length).toBeGreaterThan(0);
    // Approved: asked no more, in a pipe or on a terminal.
    expect((await mcp('status')).code).toBe(0);
    expectNoSecret({ out: first.seen(), err: '' }, { out: second.seen(), err: '' });
  }, 60_000);

  it('call asks too, and runs the tool once approved', async () => {
    const argv = ['mcp', 'call', SERVER, 'echo', '--arg', 'text=answered', '--config', config];
    const run = onTerminal(argv);
    try {
      await expect.poll(run.seen, { timeout: 20_000 }).toContain('Start it? [y/N] ');
      expect(run.seen()).not.toContain('answered');
      run.child.stdin?.write('y\n');
      expect(await run.done).toBe(0);
      expect(run.seen()).toMatch(/answered\r?\n/);
    } finally {
      run.child.kill();
    }
    expect(recordedPids(pidFile).length).toBeGreaterThan(0);
  }, 60_000);

  it('Ctrl-C at the question ends the command (130), nothing started and nothing more shown', async () => {
    const run = onTerminal(['mcp', 'status', '--config', config]);
    try {
      await expect.poll(run.seen, { timeout: 20_000 }).toContain('Start it? [y/N] ');
      run.child.stdin?.write('\x03');
      expect(await run.done).toBe(130);
      expect(run.seen()).not.toContain('Not started until approved');
    } finally {
      run.child.kill();
    }
    await expectNothingStarted();
  }, 60_000);

  it('approve on a terminal shows the launch and asks; no approves nothing', async () => {
    const run = onTerminal(['mcp', 'approve', SERVER, '--config', config]);
    try {
      await expect.poll(run.seen, { timeout: 20_000 }).toContain('Approve it and start it? [y/N] ');
      expect(run.seen()).toContain(`  runs: ${process.execPath} `);
      run.child.stdin?.write('no\n');
      expect(await run.done).toBe(1);
      expect(run.seen()).toContain('Not approved; nothing was started.');
    } finally {
      run.child.kill();
    }
    await expectNothingStarted();
  }, 60_000);
});
