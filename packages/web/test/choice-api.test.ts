// Choosing what the model gets, over the API (PUT …/enabled), in process over real HTTP on
// 127.0.0.1 with real fixture servers from all three sources: each switch is one edit of the
// hand-written mcp.json, off then on gives back its bytes, the edit is applied at once (a process
// stopped or started, a tool gone from or back in what the model is offered), and each refusal
// says why and writes nothing.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { ApiErrorBody, ChoiceSet, McpView, ServerView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNOTATED_SERVER,
  fixtureEntry,
  oneInsertion,
  PID_SERVER,
  processesWith,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const PIDS = `--pids-${process.pid}`;

let web: TestWeb;
let file: string;
let original: string;
let pluginFile: string;
let pluginText: string;

beforeAll(async () => {
  file = mcpConfigPath();
  // Written by hand: comments, a trailing comma, one server with a pattern of its own.
  original = `{
  // the dictionary
  "servers": {
    "words": { "command": ${JSON.stringify(process.execPath)}, "args": ${JSON.stringify(ANNOTATED_SERVER)} },
    /* says who it is */
    "pids": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(PID_SERVER)}, "--tool=alpha", "--tool=beta", "${PIDS}"],
    },
    "guarded": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(PID_SERVER)}, "--tool=secret_read", "--tool=plain"],
      "exclude_tools": ["secret_*"]
    },
    "odd": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(PID_SERVER)}, "--tool=fs/read file?#%"] }
  }
}
`;
  await writeFile(file, original);
  const pluginDir = join(process.env.EPOCH_HOME as string, 'plugins', 'weather');
  await mkdir(pluginDir, { recursive: true });
  pluginFile = join(pluginDir, 'mcp.json');
  pluginText = JSON.stringify({ servers: { forecast: fixtureEntry(ANNOTATED_SERVER) } });
  await writeFile(pluginFile, pluginText);
  web = await startTestWeb({
    // A host that approves every server: these tests are about the page, not about approvals.
    approve: () => true,
    hostCapabilities: { namespace: 'acme', mcpServers: { helper: fixtureEntry(ANNOTATED_SERVER) } },
  });
  await web.settled();
});

afterAll(async () => {
  await web?.close();
});

async function choose(path: string, enabled: unknown): Promise<Response> {
  return web.api(`/api/mcp/${path}/enabled`, { method: 'PUT', json: { enabled } });
}

async function chosen(path: string, enabled: boolean): Promise<ChoiceSet> {
  const response = await choose(path, enabled);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ChoiceSet;
}

/** The server as GET /api/mcp shows it now: its `tools` are what the model is offered. */
async function serverNow(name: string): Promise<ServerView> {
  const view = (await (await web.api('/api/mcp')).json()) as McpView;
  const found = [...view.groups.user, ...view.groups.host, ...view.groups.plugin].find(
    (s) => s.name === name,
  );
  if (found === undefined) throw new Error(`no server ${name} in the view`);
  return found;
}

const names = (tools: ServerView['tools']) => tools.map((tool) => tool.serverName);

async function errorOf(response: Response): Promise<ApiErrorBody['error']> {
  return ((await response.json()) as ApiErrorBody).error;
}

describe('PUT /api/mcp/:name/tools/:tool/enabled', () => {
  it('off: one insertion into the file, the tool no longer offered but listed with its cost; on: the original bytes and the tool back', async () => {
    const before = await serverNow('words');
    expect(names(before.tools)).toEqual(['lookup', 'forget']);
    expect(before.toolsOff).toEqual([]);

    const off = await chosen('words/tools/forget', false);
    expect(off).toMatchObject({ file, line: 4, changed: true });
    expect(off.changes).toEqual([
      { line: 4, text: 'added "exclude_tools": ["forget"]', changed: true },
    ]);
    const after = await readFile(file, 'utf8');
    expect(oneInsertion(original, after)).toContain('"exclude_tools": ["forget"]');
    // The answer and the live view agree: offered, off, counted and costed apart.
    for (const server of [off.server, await serverNow('words')]) {
      expect(names(server.tools)).toEqual(['lookup']);
      expect(server.toolsOff).toMatchObject([
        { name: 'mcp__words__forget', serverName: 'forget', description: expect.any(String) },
      ]);
      expect(server.status).toMatchObject({ state: 'connected', toolCount: 1, toolsOff: 1 });
      expect(server.contextTokens).toBe(server.tools[0]?.contextTokens);
      expect(server.contextTokensOff).toBe(server.toolsOff[0]?.contextTokens);
      expect(server.contextTokensOff).toBeGreaterThan(0);
    }

    // Asked again: already so, nothing written.
    const again = await chosen('words/tools/forget', false);
    expect(again.changed).toBe(false);
    expect(again.changes[0]?.text).toContain('already off');
    expect(await readFile(file, 'utf8')).toBe(after);

    const on = await chosen('words/tools/forget', true);
    expect(on.changed).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(names(on.server.tools)).toEqual(['lookup', 'forget']);
    expect(names((await serverNow('words')).tools)).toEqual(['lookup', 'forget']);
    expect((await serverNow('words')).toolsOff).toEqual([]);
  });

  it("a plugin's tool: the choice goes into the user's overrides, the plugin's file untouched; on gives back the bytes", async () => {
    const off = await chosen('weather__forecast/tools/lookup', false);
    expect(off.file).toBe(file);
    const written = oneInsertion(original, await readFile(file, 'utf8'));
    expect(written).toContain('"overrides"');
    expect(written).toContain('"weather__forecast"');
    expect(await readFile(pluginFile, 'utf8')).toBe(pluginText);
    expect(names(off.server.tools)).toEqual(['forget']);
    expect(names((await serverNow('weather__forecast')).toolsOff)).toEqual(['lookup']);

    await chosen('weather__forecast/tools/lookup', true);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(names((await serverNow('weather__forecast')).tools)).toEqual(['lookup', 'forget']);
  });

  it('a tool a pattern turns off is listed as off; turning it on is refused with the file and line of the pattern', async () => {
    const guarded = await serverNow('guarded');
    expect(names(guarded.tools)).toEqual(['whoami', 'plain']);
    expect(names(guarded.toolsOff)).toEqual(['secret_read']);
    const response = await choose('guarded/tools/secret_read', true);
    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.code).toBe('excluded_by_pattern');
    expect(error.message).toContain(`${file}:13:`);
    expect(error.message).toContain('"secret_*"');
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('a tool whose name needs escaping in the path is found by its name on the server', async () => {
    const path = `odd/tools/${encodeURIComponent('fs/read file?#%')}`;
    const off = await chosen(path, false);
    expect(off.changes[0]?.text).toBe('added "exclude_tools": ["fs/read file?#%"]');
    expect(names(off.server.toolsOff)).toEqual(['fs/read file?#%']);
    await chosen(path, true);
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('404 for a tool the server does not have, or a server there is not; 400 and 415 for a body that is not a choice; nothing written', async () => {
    const noTool = await choose('words/tools/lookupp', false);
    expect(noTool.status).toBe(404);
    const toolError = await errorOf(noTool);
    expect(toolError.code).toBe('unknown_tool');
    expect(toolError.message).toContain('"lookup", "forget"');

    for (const path of ['wordz/tools/lookup', 'wordz']) {
      const response = await choose(path, false);
      expect(response.status, path).toBe(404);
      const error = await errorOf(response);
      expect(error.code).toBe('unknown_server');
      expect(error.message).toContain('did you mean "words"?');
    }

    for (const enabled of ['false', 0, null, undefined]) {
      const response = await choose('words', enabled);
      expect(response.status, String(enabled)).toBe(400);
      expect((await errorOf(response)).code).toBe('invalid_request');
    }
    const text = await web.api('/api/mcp/words/enabled', {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const big = await web.api('/api/mcp/words/enabled', {
      method: 'PUT',
      json: { enabled: false, padding: 'x'.repeat(2000) },
    });
    expect(big.status).toBe(413);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await serverNow('words')).status?.state).toBe('connected');
  });
});

describe('PUT /api/mcp/:name/enabled', () => {
  it('off: its process stopped, the state disabled, no tools; on: a new process, connected, the original bytes', async () => {
    const [pid] = processesWith(PIDS);
    expect(pid).toBeDefined();
    const off = await chosen('pids', false);
    expect(off).toMatchObject({ file, line: 9, changed: true });
    expect(off.changes[0]?.text).toBe('added "enabled": false');
    expect(oneInsertion(original, await readFile(file, 'utf8'))).toContain('"enabled": false');
    for (const server of [off.server, await serverNow('pids')]) {
      expect(server.status).toMatchObject({ state: 'disabled', toolCount: 0, toolsOff: 0 });
      expect(server.tools).toEqual([]);
      expect(server.toolsOff).toEqual([]);
      expect(server.contextTokens).toBe(0);
    }
    await expect.poll(() => processesWith(PIDS)).toEqual([]);
    // Its tools cannot be chosen while nothing knows them.
    const tool = await choose('pids/tools/alpha', false);
    expect(tool.status).toBe(404);
    expect((await errorOf(tool)).message).toContain('it is turned off');

    // Answered once the file is written and applied: the server is connecting, and the live view
    // follows it.
    const on = await chosen('pids', true);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(on.server.status?.state).toBe('connecting');
    const connected = await web.viewWhen(
      (view) => view.groups.user.find((s) => s.name === 'pids')?.status?.state === 'connected',
    );
    const pids = connected.groups.user.find((s) => s.name === 'pids');
    expect(names(pids?.tools ?? [])).toEqual(['whoami', 'alpha', 'beta']);
    const now = processesWith(PIDS);
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(pid);
  });

  it("the host's server: turned off and on under the user's overrides", async () => {
    const off = await chosen('acme__helper', false);
    expect(oneInsertion(original, await readFile(file, 'utf8'))).toContain('"acme__helper"');
    expect(off.server.status?.state).toBe('disabled');
    const on = await chosen('acme__helper', true);
    expect(on.server.status?.state).toBe('connecting');
    const connected = await web.viewWhen(
      (view) =>
        view.groups.host.find((s) => s.name === 'acme__helper')?.status?.state === 'connected',
    );
    const helper = connected.groups.host.find((s) => s.name === 'acme__helper');
    expect(names(helper?.tools ?? [])).toEqual(['lookup', 'forget']);
    expect(await readFile(file, 'utf8')).toBe(original);
  });
});
