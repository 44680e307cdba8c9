// The connectors page's HTTP API, in process over real HTTP on 127.0.0.1: epoch web on a temp
// EPOCH_HOME with real servers from all three sources — the reference server (stdio, and
// Streamable HTTP with a secret header), a server that fails with a reason on stderr, a plugin's
// and a host's fixture server — and every status code the API answers.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpConfigPath, writeFileAtomic } from '@epoch-agent/infra';
import { type RunningEverything, startEverything } from '@epoch-agent/testkit';
import type { AddServerResponse, ApiErrorBody, McpView, ServerView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNOTATED_SERVER,
  FAILING_SERVER,
  fixtureEntry,
  oneInsertion,
  readViewsUntil,
  removeAsRead,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const SECRETS = ['env-SECRET-1', 'hdr-SECRET-2', 'url-SECRET-3', 'new-SECRET-4'];

let remote: RunningEverything;
let remoteUrl: string;
let web: TestWeb;
let file: string;
let original: string;

beforeAll(async () => {
  remote = await startEverything('http');
  if (remote.endpoint.transport === 'stdio') throw new Error('expected a remote endpoint');
  remoteUrl = remote.endpoint.url;
  const everything = await startEverything('stdio');
  if (everything.endpoint.transport !== 'stdio') throw new Error('expected a stdio endpoint');
  const { command, args } = everything.endpoint;
  file = mcpConfigPath();
  // Written by hand: comments, an alias, a misspelt field. Every edit must keep all of it.
  original = `// my servers
{
  "servers": {
    "everything": {
      "command": ${JSON.stringify(command)},
      "args": ${JSON.stringify(args)},
      "env": { "API_KEY": "${SECRETS[0]}" }
    },
    "remote": {
      "type": "http",
      "url": "${remoteUrl}?key=${SECRETS[2]}",
      "headers": { "Authorization": "Bearer ${SECRETS[1]}" }
    },
    "broken": {
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(FAILING_SERVER)}],
      "conect_timeout": 20
    }
  }
}
`;
  await writeFile(file, original);
  const pluginDir = join(process.env.EPOCH_HOME as string, 'plugins', 'weather');
  await mkdir(pluginDir, { recursive: true });
  await writeFile(
    join(pluginDir, 'mcp.json'),
    JSON.stringify({ servers: { forecast: fixtureEntry(ANNOTATED_SERVER) } }),
  );
  web = await startTestWeb({
    // A host that approves every server: these tests are about the page, not about approvals.
    approve: () => true,
    hostCapabilities: { namespace: 'acme', mcpServers: { helper: fixtureEntry(ANNOTATED_SERVER) } },
  });
  await web.settled();
});

afterAll(async () => {
  await web?.close();
  await remote?.stop();
});

async function view(): Promise<McpView> {
  const response = await web.api('/api/mcp');
  expect(response.status).toBe(200);
  return (await response.json()) as McpView;
}

function server(v: McpView, name: string): ServerView {
  const found = [...v.groups.user, ...v.groups.host, ...v.groups.plugin].find(
    (s) => s.name === name,
  );
  if (found === undefined) throw new Error(`no server ${name} in the view`);
  return found;
}

async function errorOf(response: Response): Promise<ApiErrorBody['error']> {
  return ((await response.json()) as ApiErrorBody).error;
}

describe('GET /api/mcp', () => {
  it('every server under its source, with its state, target, tools under the names the model sees, and the file diagnostics with path and line:column', async () => {
    const v = await view();
    expect(v.file).toBe(file);
    expect(v.namePattern).toBe('^[A-Za-z0-9_-]+$');
    expect(v.groups.user.map((s) => s.name)).toEqual(['everything', 'remote', 'broken']);
    expect(v.groups.host.map((s) => s.name)).toEqual(['acme__helper']);
    expect(v.groups.plugin.map((s) => s.name)).toEqual(['weather__forecast']);

    const everything = server(v, 'everything');
    expect(everything.status?.state).toBe('connected');
    expect(everything.at).toEqual({ file, line: 4, column: 5 });
    expect(everything.origin).toEqual({ source: 'user', file });
    const echo = everything.tools.find((t) => t.serverName === 'echo');
    expect(echo).toMatchObject({
      name: 'mcp__everything__echo',
      parameters: [{ name: 'message', type: 'string', required: true }],
      task: false,
    });
    // The reference server's one tool that must run as a task is marked so.
    const tasks = everything.tools.filter((t) => t.task).map((t) => t.serverName);
    expect(tasks).toEqual(['simulate-research-query']);
    expect(everything.contextTokens).toBe(
      everything.tools.reduce((sum, tool) => sum + tool.contextTokens, 0),
    );
    expect(everything.contextTokens).toBeGreaterThan(100);

    expect(server(v, 'remote')).toMatchObject({
      status: { state: 'connected', transport: 'http' },
      target: { transport: 'http', url: `${remoteUrl}?key=***` },
    });

    const broken = server(v, 'broken');
    expect(broken.status?.state).toBe('failed');
    if (broken.status?.state !== 'failed') throw new Error('unreachable');
    expect(broken.status.error.message).toContain('MCP server "broken"');
    expect(broken.status.stderrTail).toContain('WEATHER_API_KEY is not set');
    expect(broken.tools).toEqual([]);

    const forecast = server(v, 'weather__forecast');
    expect(forecast.origin).toMatchObject({ source: 'plugin', plugin: 'weather' });
    expect(forecast.tools[0]).toEqual({
      name: 'mcp__weather__forecast__lookup',
      serverName: 'lookup',
      title: 'Look up a word',
      description: 'Finds a word in the dictionary.',
      annotations: { readOnlyHint: true, openWorldHint: false },
      parameters: [
        { name: 'word', type: 'string', required: true, description: 'The word to find' },
        { name: 'limit', type: 'integer', required: false },
        { name: 'mode', type: '"exact" | "fuzzy"', required: false },
        { name: 'tags', type: 'string[]', required: false },
      ],
      onDemand: false,
      contextTokens: expect.any(Number),
      task: false,
    });
    expect(server(v, 'acme__helper')).toMatchObject({
      origin: { source: 'host', namespace: 'acme' },
      status: { state: 'connected', source: 'host' },
    });

    const typo = v.diagnostics.find((d) => d.path === 'servers.broken.conect_timeout');
    expect(typo).toMatchObject({ file, line: 17, column: 7, source: 'user' });
    expect(typo?.message).toContain('connect_timeout');
  });

  it('no env, header or URL secret appears in the view or the event stream', async () => {
    const shown = JSON.stringify(await view());
    const events = await web.api('/api/events');
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const [live] = await readViewsUntil(events, () => true);
    for (const text of [shown, JSON.stringify(live)]) {
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    }
    expect(shown).toContain('API_KEY');
    expect(shown).toContain('Authorization');
  });
});

describe('POST /api/mcp', () => {
  it('201 once the file is written, the new server connecting: one insertion, the fields left to write by hand, no value echoed; it connects by itself', async () => {
    const response = await web.api('/api/mcp', {
      method: 'POST',
      json: {
        name: 'dictionary',
        transport: 'stdio',
        command: process.execPath,
        args: [...ANNOTATED_SERVER],
        env: { DICT_TOKEN: SECRETS[3] },
      },
    });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain(SECRETS[3]);
    const added = JSON.parse(text) as AddServerResponse;
    expect(added.file).toBe(file);
    expect(added.status).toMatchObject({ name: 'dictionary', state: 'connecting', source: 'user' });
    expect(added.setByHand).toEqual(expect.arrayContaining(['cwd', 'timeout', 'connect_timeout']));
    expect(added.setByHand).not.toContain('env');

    const after = await readFile(file, 'utf8');
    expect(oneInsertion(original, after)).toContain('"dictionary"');
    expect(after).toContain(SECRETS[3]);
    const v = await web.viewWhen(
      (seen) =>
        seen.groups.user.find((s) => s.name === 'dictionary')?.status?.state === 'connected',
    );
    expect(server(v, 'dictionary').tools.map((t) => t.name)).toEqual([
      'mcp__dictionary__lookup',
      'mcp__dictionary__forget',
    ]);

    // DELETE (of the entry as read) gives back the file as it was, byte for byte.
    const removed = await removeAsRead(web, 'dictionary');
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ file });
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await view()).groups.user.map((s) => s.name)).not.toContain('dictionary');
  });

  it('400 with the field at fault for each bad input; the file is untouched', async () => {
    const stdio = { transport: 'stdio', command: process.execPath };
    const cases: [unknown, string, string][] = [
      [{ ...stdio, name: 'my server' }, 'name', 'letters, digits'],
      [{ ...stdio, name: '' }, 'name', 'name'],
      [{ name: 'x', transport: 'ftp' }, 'transport', 'stdio, sse, http'],
      [{ name: 'x', transport: 'stdio', command: '  ' }, 'command', 'command'],
      [{ ...stdio, name: 'x', args: 'one two' }, 'args', 'list of strings'],
      [{ ...stdio, name: 'x', env: { 'BAD NAME': 'v' } }, 'env', 'not a variable name'],
      [{ ...stdio, name: 'x', env: { GOOD: 1 } }, 'env', 'GOOD'],
      [{ ...stdio, name: 'x', url: 'https://a.example' }, 'url', 'no URL'],
      [{ name: 'x', transport: 'http' }, 'url', 'URL'],
      [{ name: 'x', transport: 'sse', url: 'ftp://a.example' }, 'url', 'http://'],
      [
        { name: 'x', transport: 'http', url: 'https://a.example', command: 'npx' },
        'command',
        'URL',
      ],
      [
        { name: 'x', transport: 'http', url: 'https://a.example', env: { A: 'b' } },
        'env',
        'headers',
      ],
      [['not', 'an', 'object'], 'name', 'JSON object'],
    ];
    for (const [body, field, words] of cases) {
      const response = await web.api('/api/mcp', { method: 'POST', json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('invalid_request');
      expect(error.fields?.[field as 'name'], JSON.stringify(body)).toContain(words);
    }

    // What only the loader knows: the server as given would not load.
    const unloadable = await web.api('/api/mcp', {
      method: 'POST',
      json: { name: 'x', transport: 'http', url: 'http://exa mple.com/mcp' },
    });
    expect(unloadable.status).toBe(400);
    const error = await errorOf(unloadable);
    expect(error.code).toBe('invalid_server');
    expect(error.fields?.url).toBeDefined();

    const notJson = await web.api('/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect((await errorOf(notJson)).code).toBe('invalid_json');
    const form = await web.api('/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('413 for a body over 1 MiB or one field over 64 KiB, naming the field; nothing is written', async () => {
    const big = await web.api('/api/mcp', {
      method: 'POST',
      json: { name: 'big', transport: 'stdio', command: 'node', args: ['y'.repeat(2_000_000)] },
    });
    expect(big.status).toBe(413);
    const bigError = await errorOf(big);
    expect(bigError.code).toBe('too_large');
    expect(bigError.message).toContain('over 1 MiB (1048576 bytes)');

    const cases: [Record<string, unknown>, string, string][] = [
      [{ command: process.execPath, args: ['-y', 'z'.repeat(70_000)] }, 'args', 'args[1]'],
      [{ command: process.execPath, env: { TOKEN: 'z'.repeat(70_000) } }, 'env', 'env.TOKEN'],
    ];
    for (const [fields, field, path] of cases) {
      const response = await web.api('/api/mcp', {
        method: 'POST',
        json: { name: 'long', transport: 'stdio', ...fields },
      });
      expect(response.status, path).toBe(413);
      const error = await errorOf(response);
      expect(error.code).toBe('too_large');
      expect(error.fields?.[field as 'args']).toContain(
        `servers.long.${path} is 70000 bytes; one field may hold at most 64 KiB (65536 bytes)`,
      );
      expect(error.message).not.toContain('zzzz');
    }
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('409 for a name a user, plugin or host server already has; the file is untouched', async () => {
    for (const [name, holder] of [
      ['everything', file],
      ['weather__forecast', 'plugin "weather"'],
      ['acme__helper', 'the application that embeds epoch'],
    ]) {
      const response = await web.api('/api/mcp', {
        method: 'POST',
        json: { name, transport: 'stdio', command: process.execPath },
      });
      expect(response.status, name).toBe(409);
      const error = await errorOf(response);
      expect(error.code).toBe('duplicate_server');
      expect(error.fields?.name).toContain(holder as string);
    }
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('409 while the file does not parse, with where; nothing is written', async () => {
    const broken = original.replace('"remote": {', '"remote": {{');
    // Replaced, never rewritten in place: the page watches this file, and a read between the
    // truncation and the write of an in-place save sees an empty file, which says "no servers":
    // every user server would be disconnected until the next read, and a later test would find
    // none of them (a 404 for `everything`).
    await writeFileAtomic(file, broken);
    try {
      const response = await web.api('/api/mcp', {
        method: 'POST',
        json: { name: 'late', transport: 'http', url: 'https://a.example/mcp' },
      });
      expect(response.status).toBe(409);
      const error = await errorOf(response);
      expect(error.code).toBe('syntax_error');
      expect(error.diagnostics?.[0]).toMatchObject({ file, line: 9 });
      expect(await readFile(file, 'utf8')).toBe(broken);
    } finally {
      await writeFileAtomic(file, original);
    }
  });
});

describe('DELETE /api/mcp/:name', () => {
  it('403 for a plugin or host server, naming where it comes from; 404 for an unknown one', async () => {
    // With a basedOn, as a client that read an entry sends: the refusal is the server's own.
    const plugin = await web.api('/api/mcp/weather__forecast?basedOn=shown', { method: 'DELETE' });
    expect(plugin.status).toBe(403);
    expect(await errorOf(plugin)).toMatchObject({ code: 'not_user_server' });
    const host = await web.api('/api/mcp/acme__helper?basedOn=shown', { method: 'DELETE' });
    expect(host.status).toBe(403);
    expect((await errorOf(host)).message).toContain('application that embeds epoch');
    const unknown = await web.api('/api/mcp/nope?basedOn=shown', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('unknown_server');
    expect(await readFile(file, 'utf8')).toBe(original);
  });
});

describe('POST /api/mcp/:name/reconnect and /login', () => {
  it('reconnect answers the new status, and the event stream sends the change', async () => {
    const events = await web.api('/api/events');
    const reconnected = await web.api('/api/mcp/weather__forecast/reconnect', { method: 'POST' });
    expect(reconnected.status).toBe(200);
    expect(await reconnected.json()).toMatchObject({
      status: { name: 'weather__forecast', state: 'connected' },
    });
    // The first view, then at least one more: the reconnect went through connecting.
    const views = await readViewsUntil(events, (_, index) => index === 1);
    expect(views).toHaveLength(2);
    const unknown = await web.api('/api/mcp/nope/reconnect', { method: 'POST' });
    expect(unknown.status).toBe(404);
  });

  it('login: 400 for a stdio server, 404 for an unknown one, 409 for a server that answers without a login', async () => {
    const stdio = await web.api('/api/mcp/everything/login', { method: 'POST' });
    expect(stdio.status).toBe(400);
    expect(await errorOf(stdio)).toMatchObject({ code: 'not_remote_server' });
    const unknown = await web.api('/api/mcp/nope/login', { method: 'POST' });
    expect(unknown.status).toBe(404);
    const noOAuth = await web.api('/api/mcp/remote/login', { method: 'POST' });
    expect(noOAuth.status).toBe(409);
    const error = await errorOf(noOAuth);
    expect(error.code).toBe('login_not_needed');
    expect(error.message).toContain('"remote"');
    for (const secret of SECRETS) expect(error.message).not.toContain(secret);
  });

  it('404 for a path or method the API does not have', async () => {
    expect((await web.api('/api/nothing')).status).toBe(404);
    expect((await web.api('/api/mcp', { method: 'PUT', json: {} })).status).toBe(404);
  });
});
