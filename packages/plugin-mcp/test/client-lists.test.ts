import { describe, expect, it } from 'vitest';
import type { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import {
  type Behavior,
  memoryLogger,
  records,
  requests,
  useRecordingClients,
} from './support/recording.js';

const ALL = { tools: {}, resources: {}, prompts: {} };

const servers = useRecordingClients();

function start(behavior: Behavior) {
  const logger = memoryLogger();
  return { ...servers.start(behavior, { name: 'pages', logger }), logger };
}

describe('pagination', () => {
  it('tools/list that always has a nextCursor stops after exactly 50 requests, with a warning', async () => {
    const { client, file, logger } = start({ forever: ['tools/list'] });
    await client.connect();
    expect(requests(file, 'tools/list')).toHaveLength(50);
    const state = client.state;
    expect(state.kind === 'connected' && state.tools.length).toBe(4 * 50);
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('"pages"');
    expect(warnings[0]?.message).toContain('tools/list');
    expect(warnings[0]?.message).toContain('50 pages');
  });

  const lists: ReadonlyArray<readonly [string, (client: McpClient) => Promise<unknown[]>]> = [
    ['prompts/list', (c) => c.listPrompts()],
    ['resources/list', (c) => c.listResources()],
    ['resources/templates/list', (c) => c.listResourceTemplates()],
  ];

  it.each(lists)(
    '%s that always has a nextCursor stops after exactly 50 requests, with a warning',
    async (method, listAll) => {
      const { client, file, logger } = start({ capabilities: ALL, forever: [method] });
      await client.connect();
      expect(await listAll(client)).toHaveLength(50);
      const pages = requests(file, method);
      expect(pages).toHaveLength(50);
      // Each page asked with the previous page's cursor.
      expect(pages.slice(0, 3).map((p) => p.in?.params?.cursor)).toEqual([undefined, '1', '2']);
      expect(
        logger.lines.filter((l) => l.level === 'warn' && l.message.includes(method)),
      ).toHaveLength(1);
    },
  );

  it('resources/list keeps the resources of every page', async () => {
    const { client } = start({ capabilities: ALL, forever: ['resources/list'] });
    await client.connect();
    const uris = (await client.listResources()).map((r) => r.uri);
    expect(uris.slice(0, 3)).toEqual(['mem://a', 'mem://a?page=1', 'mem://a?page=2']);
    expect(new Set(uris).size).toBe(50);
  });
});

describe('method not found', () => {
  it('resources/list, resources/templates/list and prompts/list answered with -32601 are empty, not errors', async () => {
    const { client, file } = start({
      capabilities: ALL,
      notFound: ['resources/list', 'resources/templates/list', 'prompts/list'],
    });
    await client.connect();
    expect(await client.listResources()).toEqual([]);
    expect(await client.listResourceTemplates()).toEqual([]);
    expect(await client.listPrompts()).toEqual([]);
    expect(requests(file, 'resources/list')).toHaveLength(1);
    expect(requests(file, 'resources/templates/list')).toHaveLength(1);
    expect(requests(file, 'prompts/list')).toHaveLength(1);
    expect(client.state.kind).toBe('connected');
  });
});

describe('capabilities', () => {
  it('a server that declared only tools is never asked about resources or prompts', async () => {
    const { client, file } = start({ capabilities: { tools: {} } });
    await client.connect();
    const state = client.state;
    expect(state.kind === 'connected' && [state.resources, state.prompts]).toEqual([false, false]);
    expect(await client.listResources()).toEqual([]);
    expect(await client.listResourceTemplates()).toEqual([]);
    expect(await client.listPrompts()).toEqual([]);
    const read = await client.readResource('mem://a').catch((e: unknown) => e);
    expect(isMcpError(read, 'not_supported')).toBe(true);
    const get = await client.getPrompt('greet', {}).catch((e: unknown) => e);
    expect(isMcpError(get, 'not_supported')).toBe(true);
    const asked = records(file)
      .map((r) => r.in?.method)
      .filter((m) => m?.startsWith('resources/') || m?.startsWith('prompts/'));
    expect(asked).toEqual([]);
  });

  it('a server that declared resources and prompts gets them asked and answered', async () => {
    const { client } = start({ capabilities: ALL });
    await client.connect();
    expect((await client.listResources()).map((r) => r.uri)).toEqual(['mem://a']);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'mem://{name}',
    ]);
    expect((await client.readResource('mem://a')).contents[0]).toMatchObject({
      text: 'content of mem://a',
    });
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['greet']);
    const prompt = await client.getPrompt('greet', { who: 'ada' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'hello ada' });
  });

  it('initialize declares no sampling, elicitation or roots', async () => {
    const { client, file } = start({});
    await client.connect();
    const [initialize] = requests(file, 'initialize');
    // Tasks are always followed: the extension is declared whatever else is.
    expect(initialize?.in?.params?.capabilities).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });
});
