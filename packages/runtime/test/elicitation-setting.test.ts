// A server's elicitation setting as the runtime reads it, on real files in a temp EPOCH_HOME and a
// temp project: a project's or plugin's own `"elicitation": "ask"` is dropped with the warning
// `elicitation_refused` (naming the file, the server, the field and the override to write), the
// user's `overrides` raise it (at start and by applyMcpConfig, without a reconnect), the host's
// code and the user's own entries keep theirs, and serverFields shows the value that takes effect,
// its source's default included; and, through buildRuntime's `elicit`, a project's server that
// asks (the reference server over stdio) is declined without the person being asked until the
// user's override raises it, then asked with the call's own ToolContext.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { prefixedName } from '@epoch-agent/plugin-mcp';
import type { ElicitationQuestion, Runtime, ToolContext } from '@epoch-agent/runtime';
import { serverFields } from '@epoch-agent/runtime/config';
import { EVERYTHING_ENTRY } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveEverything, pidOf, pidServer, useRuntimeHome } from './runtime-helpers.js';

const t = useRuntimeHome();
let project: string;

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'epoch-elicitation-setting-'));
  await mkdir(join(project, '.git'));
});
afterEach(() => rm(project, { recursive: true, force: true }));

/** Writes the project's `.epoch/mcp.json` as this exact text; returns its path. */
async function writeProject(text: string): Promise<string> {
  const file = join(project, '.epoch', 'mcp.json');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** The `elicitation` row serverFields gives the server: the value that takes effect, and from where. */
function elicitationRow(runtime: Runtime, name: string) {
  const server = runtime.server(name);
  if (server === undefined) throw new Error(`${name} is not read`);
  return serverFields(server, runtime.configFile).fields.find((f) => f.field === 'elicitation');
}

describe("a project's file", () => {
  it('cannot let its server ask: "ask" is dropped with a warning at the field that names the override', async () => {
    const file = await writeProject(
      `{\n  "servers": {\n    "proj": {\n      "command": "node",\n      "elicitation": "ask"\n    },\n    "quiet": { "command": "node", "elicitation": "decline" }\n  }\n}\n`,
    );
    const runtime = await t.build({ projectDir: project, connectOnly: [] });
    const refused = runtime.diagnostics().filter((d) => d.code === 'elicitation_refused');
    expect(refused).toEqual([
      {
        severity: 'warning',
        code: 'elicitation_refused',
        file,
        path: 'servers.proj.elicitation',
        line: 5,
        column: 7,
        source: 'project',
        message: `"elicitation": "ask" of server "proj" in the project's ${file} is ignored: its questions are declined without asking you. Only your own mcp.json lets it ask: add "overrides": { "proj": { "elicitation": "ask" } } there.`,
      },
    ]);
    expect(runtime.server('proj')?.config.elicitation).toBeUndefined();
    expect(elicitationRow(runtime, 'proj')).toMatchObject({ value: 'decline' });
    // "decline" is the project's to say: it asks for nothing.
    expect(runtime.server('quiet')?.config.elicitation).toBe('decline');
  });

  it("its server asks once the user's override says so, and an edit of the override reaches the running server's config without a reconnect", async () => {
    await writeProject(JSON.stringify({ servers: { proj: pidServer() } }));
    const runtime = await t.build({ projectDir: project, approve: approveEverything });
    expect(runtime.mcp.configOf('proj')?.elicitation).toBeUndefined();
    expect(elicitationRow(runtime, 'proj')).toEqual({
      field: 'elicitation',
      value: 'decline',
      from: { kind: 'default' },
    });
    const pid = await pidOf(runtime, 'proj');

    await t.home.writeUserConfig(
      '{\n  "servers": {},\n  "overrides": {\n    "proj": { "elicitation": "ask" }\n  }\n}\n',
    );
    const applied = await runtime.applyMcpConfig();
    expect(applied.reconnected).toEqual([]);
    expect(runtime.mcp.configOf('proj')?.elicitation).toBe('ask');
    expect(elicitationRow(runtime, 'proj')).toEqual({
      field: 'elicitation',
      value: 'ask',
      from: { kind: 'override', file: runtime.configFile, key: 'elicitation', line: 4, column: 15 },
    });
    expect(await pidOf(runtime, 'proj')).toBe(pid);
  });
});

describe("a plugin's file", () => {
  it("cannot let its server ask; the user's override, by the server's full name, can", async () => {
    const file = await t.home.writePluginConfig('wx', {
      live: { command: 'node', elicitation: 'ask' },
    });
    const runtime = await t.build({ connectOnly: [] });
    expect(runtime.diagnostics()).toContainEqual(
      expect.objectContaining({
        code: 'elicitation_refused',
        file,
        path: 'servers.live.elicitation',
        source: 'plugin',
        message: expect.stringContaining(
          `in plugin "wx"'s ${file} is ignored: its questions are declined without asking you. Only your own mcp.json lets it ask: add "overrides": { "wx__live": { "elicitation": "ask" } } there.`,
        ),
      }),
    );
    expect(runtime.server('wx__live')?.config.elicitation).toBeUndefined();
    expect(elicitationRow(runtime, 'wx__live')).toMatchObject({ value: 'decline' });
    await runtime.close();

    await t.home.writeUserConfig('{ "overrides": { "wx__live": { "elicitation": "ask" } } }');
    const raised = await t.build({ connectOnly: [] });
    expect(raised.server('wx__live')?.config.elicitation).toBe('ask');
    expect(elicitationRow(raised, 'wx__live')).toMatchObject({
      value: 'ask',
      from: { kind: 'override' },
    });
  });
});

describe('the user and the host', () => {
  it('keep what they write, and ask by default', async () => {
    await t.home.writeUserConfig(
      JSON.stringify({
        servers: { mine: { command: 'node' }, hushed: { command: 'node', elicitation: 'decline' } },
        overrides: { acme__muted: { elicitation: 'decline' } },
      }),
    );
    const runtime = await t.build({
      connectOnly: [],
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: {
          helper: { command: 'node' },
          strict: { command: 'node', elicitation: 'decline' },
          muted: { command: 'node' },
        },
      },
    });
    expect(runtime.diagnostics().filter((d) => d.code === 'elicitation_refused')).toEqual([]);
    expect(elicitationRow(runtime, 'mine')).toMatchObject({
      value: 'ask',
      from: { kind: 'default' },
    });
    expect(elicitationRow(runtime, 'hushed')).toMatchObject({
      value: 'decline',
      from: { kind: 'file' },
    });
    expect(elicitationRow(runtime, 'acme__helper')).toMatchObject({
      value: 'ask',
      from: { kind: 'host' },
    });
    expect(elicitationRow(runtime, 'acme__strict')).toMatchObject({ value: 'decline' });
    expect(elicitationRow(runtime, 'acme__muted')).toMatchObject({
      value: 'decline',
      from: { kind: 'override' },
    });
  });
});

describe('a host that asks the person', () => {
  it("is not asked by a project's server until the user's override says so, raised while it runs; then with the call's ToolContext", async () => {
    await writeProject(
      JSON.stringify({
        servers: {
          ref: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], elicitation: 'ask' },
        },
      }),
    );
    const asked: ElicitationQuestion[] = [];
    const build = () =>
      t.build({
        projectDir: project,
        approve: approveEverything,
        elicit: async (question) => {
          asked.push(question);
          return { action: 'accept', content: { name: 'Ada Lovelace' } };
        },
      });
    const call = async (runtime: Runtime, context: ToolContext) => {
      const tool = runtime.tools.get(prefixedName('ref', 'trigger-elicitation-request'));
      if (tool === undefined) throw new Error('the reference server offers no elicitation tool');
      const result = await tool.execute({}, context);
      return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    };

    const runtime = await build();
    expect(await call(runtime, { signal: new AbortController().signal })).toContain(
      'User declined to provide the requested information.',
    );
    expect(asked).toEqual([]);
    const before = runtime.mcp.statuses().find((s) => s.name === 'ref');

    // Raised while the server runs: the next question is asked, on the same connection.
    await t.home.writeUserConfig('{ "overrides": { "ref": { "elicitation": "ask" } } }');
    await runtime.applyMcpConfig();
    const context: ToolContext = { signal: new AbortController().signal };
    expect(await call(runtime, context)).toContain('- Name: Ada Lovelace');
    expect(runtime.mcp.statuses().find((s) => s.name === 'ref')).toEqual(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 'ref', source: 'project', mode: 'form' });
    expect(asked[0]?.during?.context).toBe(context);
  });
});
