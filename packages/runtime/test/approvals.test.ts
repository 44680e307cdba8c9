// Nothing starts without the user's consent, on real server processes and a real listener: an
// entry that appears in mcp.json while a runtime with the watcher runs (what a prompt-injected
// agent writing the file would do) starts no process and opens no socket until it is approved;
// an approved entry whose args change is asked again; a plugin's server waits unless the host's
// callback or the store approves it; epoch's own writers approve what they write; revoking stops
// what needs approval; the approval store holds no secret and is the owner's only. Processes are
// found in /proc by a tag unique to the test; sockets by a tripwire listener that counts every
// connection. Each step waits on the watcher's callback or an awaited call, never on a timer.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMcpError } from '@epoch-agent/plugin-mcp';
import {
  type McpApprovalRequest,
  type McpConfigApplied,
  type McpServerStatus,
  type Runtime,
  watchMcpConfig,
} from '@epoch-agent/runtime';
import { startTripwire } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import {
  isAlive,
  pidOf,
  pidServer,
  processesTagged,
  rejection,
  useRuntimeHome,
} from './runtime-helpers.js';

const t = useRuntimeHome();

const approvalsFile = () => join(t.home.dir, 'approvals.json');

/** The applies the watcher reports, each awaited in turn. */
function appliedQueue(): {
  onApplied: (applied: McpConfigApplied) => void;
  next(): Promise<McpConfigApplied>;
} {
  const ready: McpConfigApplied[] = [];
  const waiting: ((applied: McpConfigApplied) => void)[] = [];
  return {
    onApplied(applied) {
      const take = waiting.shift();
      if (take === undefined) ready.push(applied);
      else take(applied);
    },
    next() {
      const first = ready.shift();
      return first === undefined
        ? new Promise((resolve) => waiting.push(resolve))
        : Promise.resolve(first);
    },
  };
}

function statusOf(runtime: Runtime, name: string): McpServerStatus | undefined {
  return runtime.mcp.statuses().find((status) => status.name === name);
}

describe('an entry written into mcp.json while the runtime runs', () => {
  it('starts no process and opens no socket until it is approved, then runs; a change of its args asks again', async () => {
    const tag = `--tag=${randomUUID()}`;
    const tripwire = await startTripwire();
    try {
      await t.home.writeUserConfig({ mine: pidServer() });
      const runtime = await t.build({ registry: { schemaCache: null } });
      const mine = await pidOf(runtime, 'mine');
      const applies = appliedQueue();
      const stop = watchMcpConfig(runtime, { onApplied: applies.onApplied });
      try {
        // What an agent with a filesystem tool could write: a program and a remote server.
        const injected = pidServer(tag);
        await t.home.writeUserConfig({
          mine: pidServer(),
          injected,
          remote: { url: `${tripwire.origin}/mcp`, headers: { Authorization: 'Bearer hdr-7f3a' } },
        });
        const applied = await applies.next();
        expect(applied).toMatchObject({ added: ['injected', 'remote'], unchanged: ['mine'] });
        expect(applied.held).toEqual(['injected', 'remote']);

        expect(processesTagged(tag)).toEqual([]);
        expect(tripwire.hits()).toEqual([]);
        expect(statusOf(runtime, 'injected')).toMatchObject({
          state: 'needsApproval',
          reason: 'new',
          toolCount: 0,
          launch: { transport: 'stdio', command: [process.execPath, ...(injected.args ?? [])] },
        });
        expect(statusOf(runtime, 'remote')).toMatchObject({
          state: 'needsApproval',
          launch: {
            transport: 'sse',
            url: `${tripwire.origin}/mcp`,
            headerNames: ['Authorization'],
          },
        });
        expect(JSON.stringify(runtime.mcp.statuses())).not.toContain('hdr-7f3a');
        expect(runtime.mcp.toolsOf('injected')).toEqual([]);
        expect(runtime.tools.groups()).toEqual(['mcp:mine']);
        const refused = await rejection(runtime.mcp.reconnect('injected'));
        expect(isMcpError(refused, 'needs_approval')).toBe(true);
        // The user's own server ran on untouched.
        expect(await pidOf(runtime, 'mine')).toBe(mine);

        const approved = await runtime.approveServer('injected');
        expect(approved.state).toBe('connected');
        const first = await pidOf(runtime, 'injected');
        expect(processesTagged(tag)).toEqual([first]);
        expect(tripwire.hits()).toEqual([]);

        // The same entry with one more argument is another program: asked again.
        await t.home.writeUserConfig({
          mine: pidServer(),
          injected: pidServer(tag, '--tool=extra'),
          remote: { url: `${tripwire.origin}/mcp` },
        });
        const changed = await applies.next();
        expect(changed).toMatchObject({ reconnected: ['injected', 'remote'] });
        expect(changed.held).toEqual(['injected', 'remote']);
        expect(isAlive(first)).toBe(false);
        expect(processesTagged(tag)).toEqual([]);
        expect(statusOf(runtime, 'injected')).toMatchObject({
          state: 'needsApproval',
          reason: 'changed',
        });
        expect(runtime.mcp.toolsOf('injected')).toEqual([]);
        expect(tripwire.hits()).toEqual([]);

        expect((await runtime.approveServer('injected')).state).toBe('connected');
        expect(processesTagged(tag)).toEqual([await pidOf(runtime, 'injected')]);
      } finally {
        stop();
      }
    } finally {
      await tripwire.close();
    }
  });

  it('a user entry changed while the runtime runs is `changed`, and coming back to the form it had at start needs nothing', async () => {
    const tag = `--tag=${randomUUID()}`;
    await t.home.writeUserConfig({ mine: pidServer(tag) });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const before = await pidOf(runtime, 'mine');

    await t.home.writeUserConfig({ mine: pidServer(tag, '--tool=other') });
    expect((await runtime.applyMcpConfig()).held).toEqual(['mine']);
    expect(statusOf(runtime, 'mine')).toMatchObject({ state: 'needsApproval', reason: 'changed' });
    expect(isAlive(before)).toBe(false);
    expect(processesTagged(tag)).toEqual([]);

    await t.home.writeUserConfig({ mine: pidServer(tag) });
    const back = await runtime.applyMcpConfig();
    expect(back.held).toEqual([]);
    expect(statusOf(runtime, 'mine')?.state).toBe('connected');
  });
});

describe("a plugin's server", () => {
  it('waits without a callback: no process, no tools, not even cached ones after a revoke', async () => {
    const tag = `--tag=${randomUUID()}`;
    await t.home.writePluginConfig('weather', { forecast: pidServer(tag) });
    const held = await t.build();
    expect(processesTagged(tag)).toEqual([]);
    expect(held.mcp.statuses()).toMatchObject([
      { name: 'weather__forecast', source: 'plugin', state: 'needsApproval', reason: 'new' },
    ]);
    expect(held.mcp.tools()).toEqual([]);

    // Approved: it runs, and its tool list goes into the schema cache.
    expect((await held.approveServer('weather__forecast')).state).toBe('connected');
    expect(processesTagged(tag)).toHaveLength(1);
    const revoked = await held.revokeServer('weather__forecast');
    expect(revoked).toMatchObject({ needsApproval: true, status: { state: 'needsApproval' } });
    expect(processesTagged(tag)).toEqual([]);
    expect(held.mcp.tools()).toEqual([]);
    await held.close();

    // A new process: the cache knows its tools, the store no longer approves it.
    const again = await t.build();
    expect(again.mcp.statuses()).toMatchObject([{ state: 'needsApproval', toolCount: 0 }]);
    expect(again.mcp.tools()).toEqual([]);
    expect(processesTagged(tag)).toEqual([]);
  });

  it("the host's callback is asked with the launch and the source; yes is recorded, no leaves it waiting; the host's own servers are never asked", async () => {
    const tag = `--tag=${randomUUID()}`;
    await t.home.writePluginConfig('weather', { forecast: pidServer(tag) });
    const host = { namespace: 'acme', mcpServers: { search: pidServer() } };
    const asked: McpApprovalRequest[] = [];

    // No schema cache: each build waits for the servers it starts.
    const refusing = await t.build({
      registry: { schemaCache: null },
      hostCapabilities: host,
      approve: (request) => {
        asked.push(request);
        return false;
      },
    });
    expect(asked).toEqual([
      {
        server: 'weather__forecast',
        source: 'plugin',
        reason: 'new',
        launch: {
          transport: 'stdio',
          command: [process.execPath, ...(pidServer(tag).args ?? [])],
          envNames: [],
        },
      },
    ]);
    expect(processesTagged(tag)).toEqual([]);
    expect(statusOf(refusing, 'acme__search')?.state).toBe('connected');
    expect(statusOf(refusing, 'weather__forecast')?.state).toBe('needsApproval');
    await refusing.close();

    const approving = await t.build({
      registry: { schemaCache: null },
      hostCapabilities: host,
      approve: async (request) => {
        asked.push(request);
        return true;
      },
    });
    expect(asked.map(({ server }) => server)).toEqual(['weather__forecast', 'weather__forecast']);
    expect(statusOf(approving, 'weather__forecast')?.state).toBe('connected');
    expect(processesTagged(tag)).toEqual([await pidOf(approving, 'weather__forecast')]);
    await approving.close();

    // Recorded: a host with no callback starts it now, and asks nothing.
    const later = await t.build({ registry: { schemaCache: null }, hostCapabilities: host });
    expect(statusOf(later, 'weather__forecast')?.state).toBe('connected');
  });
});

describe("a project's servers", () => {
  it('in a fresh directory start nothing, not even tools cached from an earlier run, until one is approved; then that one runs; a change of its args asks again', async () => {
    const docsTag = `--tag=${randomUUID()}`;
    const otherTag = `--tag=${randomUUID()}`;
    const tripwire = await startTripwire();
    const project = await mkdtemp(join(tmpdir(), 'epoch-project-'));
    try {
      // A repository root of its own, so no .epoch/mcp.json above the temp dir is read.
      await mkdir(join(project, '.git'));
      // The same entry run once as the user's own server: its tools are in the schema cache, so
      // a held project server that offered cached tools would be seen below.
      await t.home.writeUserConfig({ docs: pidServer(docsTag) });
      const primer = await t.build({ projectDir: null });
      expect(statusOf(primer, 'docs')?.state).toBe('connected');
      await primer.close();
      expect(await readdir(join(t.home.dir, 'cache', 'mcp-schemas'))).not.toEqual([]);
      expect(processesTagged(docsTag)).toEqual([]);
      await t.home.writeUserConfig({});

      const file = join(project, '.epoch', 'mcp.json');
      await mkdir(join(project, '.epoch'));
      const projectServers = (docs: Record<string, unknown>) =>
        writeFile(
          file,
          JSON.stringify({
            servers: {
              docs,
              other: pidServer(otherTag),
              remote: { url: `${tripwire.origin}/mcp` },
            },
          }),
        );
      await projectServers(pidServer(docsTag));
      const runtime = await t.build({ projectDir: project });
      expect(runtime.projectFile).toBe(file);
      expect(runtime.mcp.statuses()).toMatchObject([
        { name: 'docs', source: 'project', state: 'needsApproval', reason: 'new', toolCount: 0 },
        { name: 'other', source: 'project', state: 'needsApproval', reason: 'new', toolCount: 0 },
        { name: 'remote', source: 'project', state: 'needsApproval', reason: 'new', toolCount: 0 },
      ]);
      expect(processesTagged(docsTag)).toEqual([]);
      expect(processesTagged(otherTag)).toEqual([]);
      expect(tripwire.hits()).toEqual([]);
      expect(runtime.mcp.tools()).toEqual([]);
      expect(runtime.mcp.toolsOf('docs')).toEqual([]);
      expect(runtime.tools.groups()).toEqual([]);

      // Approving `docs` starts that server, and only it. Approved, its cached tools may be offered
      // while it connects (the status can still say `connecting`); a call reaches its process.
      const approved = await runtime.approveServer('docs');
      expect(approved).toMatchObject({ name: 'docs', source: 'project' });
      const first = await pidOf(runtime, 'docs');
      expect(statusOf(runtime, 'docs')?.state).toBe('connected');
      expect(processesTagged(docsTag)).toEqual([first]);
      expect(runtime.tools.get('mcp__docs__whoami')?.source).toBe('project');
      expect(runtime.tools.groups()).toEqual(['mcp:docs']);
      expect(processesTagged(otherTag)).toEqual([]);
      expect(tripwire.hits()).toEqual([]);
      expect(statusOf(runtime, 'other')?.state).toBe('needsApproval');
      expect(statusOf(runtime, 'remote')?.state).toBe('needsApproval');

      // The project's entry with one more argument is another program: asked again.
      await projectServers(pidServer(docsTag, '--tool=extra'));
      const applied = await runtime.applyMcpConfig();
      expect(applied.project).toMatchObject({ file, reconnected: ['docs'], held: ['docs'] });
      expect(isAlive(first)).toBe(false);
      expect(processesTagged(docsTag)).toEqual([]);
      expect(statusOf(runtime, 'docs')).toMatchObject({
        state: 'needsApproval',
        reason: 'changed',
        toolCount: 0,
      });
      expect(runtime.mcp.toolsOf('docs')).toEqual([]);
      expect(runtime.tools.groups()).toEqual([]);
      expect(processesTagged(otherTag)).toEqual([]);
      expect(tripwire.hits()).toEqual([]);
    } finally {
      await tripwire.close();
      await rm(project, { recursive: true, force: true });
    }
  });
});

describe("epoch's own writers", () => {
  it('approve what they write, in the store, without a secret in it; revoking such an entry stops it, while an entry from the start runs on', async () => {
    await t.home.writeUserConfig({ mine: pidServer() });
    const runtime = await t.build({ registry: { schemaCache: null } });
    const secret = 'sk-live-7f3a9c0d1e2b';
    const added = await runtime.addServer({
      name: 'fresh',
      transport: 'stdio',
      command: process.execPath,
      args: [...(pidServer().args ?? []), `--api-key=${secret}`],
      env: { API_TOKEN: secret },
    });
    expect(added.applied.held).toEqual([]);
    expect(added.status?.state).toBe('connected');

    const text = await readFile(approvalsFile(), 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(process.execPath);
    expect(JSON.parse(text)).toEqual({
      version: 1,
      servers: {
        'user:fresh': [
          {
            launch: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
            approvedAt: expect.any(String),
          },
        ],
      },
    });
    expect((await stat(approvalsFile())).mode & 0o777).toBe(0o600);

    const freshPid = await pidOf(runtime, 'fresh');
    const revoked = await runtime.revokeServer('fresh');
    expect(revoked).toMatchObject({ needsApproval: true, status: { state: 'needsApproval' } });
    expect(isAlive(freshPid)).toBe(false);

    const minePid = await pidOf(runtime, 'mine');
    expect(await runtime.revokeServer('mine')).toMatchObject({
      needsApproval: false,
      status: { state: 'connected' },
    });
    expect(await pidOf(runtime, 'mine')).toBe(minePid);

    const unknown = await rejection(runtime.approveServer('nope'));
    expect(unknown).toMatchObject({ code: 'unknown_server' });
  });

  it('import approves the servers it writes, under the names it gives them', async () => {
    const runtime = await t.build({ registry: { schemaCache: null } });
    const entry = pidServer();
    const imported = await runtime.importServers([
      {
        client: 'claude-desktop',
        file: join(t.home.dir, 'claude_desktop_config.json'),
        scope: 'user',
        original: 'imported',
        name: 'imported',
        entry: { command: entry.command, args: entry.args },
        notes: [],
      },
    ]);
    expect(imported.applied?.held).toEqual([]);
    expect(statusOf(runtime, 'imported')?.state).toBe('connected');
  });
});
