// The tool adapter against real servers over stdio: the reference server for what every server
// does, and a fixture of ours for what the reference server does not (names that collide, missing
// descriptions and hints, content types no spec defines). The SDK's own Client is the backend here;
// McpClient's part is tested with McpClient (resource listing: resource-tools.test.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secretRedactor } from '@epoch-agent/infra';
import type { ToolContent, ToolResult } from '@epoch-agent/protocol';
import { EVERYTHING_ENTRY } from '@epoch-agent/testkit';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../src/config/output-tokens.js';
import { type McpEpochTool, type McpToolBackend, toEpochTools } from '../src/tools/epoch-tools.js';
import { toolCallResultSchema } from '../src/tools/result.js';
import { defaultToolResultsDir } from '../src/tools/result-files.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'tool-shapes-server.mjs');
const PROVIDER_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

interface Connected {
  readonly tools: McpEpochTool[];
  /** Resolves when the adapter next hands a call of the server's tool `name` to the client. */
  calling(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `sdk` calls tools with the SDK's callTool(); `lenient` requests tools/call with
 * toolCallResultSchema, which lets a content block of an unknown type through to the adapter.
 */
type CallStyle = 'sdk' | 'lenient';

async function connect(
  server: string,
  args: string[],
  calls: CallStyle = 'sdk',
): Promise<Connected> {
  const client = new Client({ name: 'epoch-tools-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }),
  );
  const waiting = new Map<string, () => void>();
  const backend = sdkBackend(client, calls);
  try {
    const { tools } = await client.listTools();
    const declared = client.getServerCapabilities()?.resources !== undefined;
    return {
      calling: (name) => new Promise((resolve) => waiting.set(name, resolve)),
      tools: toEpochTools({
        server,
        source: 'user',
        tools,
        resources: declared,
        backend: {
          ...backend,
          callTool: (name, callArgs, signal) => {
            const pending = backend.callTool(name, callArgs, signal);
            waiting.get(name)?.();
            waiting.delete(name);
            return pending;
          },
        },
        cap: {
          maxTokens: () => DEFAULT_MAX_OUTPUT_TOKENS,
          dir: defaultToolResultsDir(),
          redact: secretRedactor(),
        },
      }),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

function sdkBackend(client: Client, calls: CallStyle): McpToolBackend {
  const options = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });
  return {
    callTool: (name, args, signal) =>
      calls === 'sdk'
        ? client.callTool({ name, arguments: args }, options(signal))
        : client.request(
            { method: 'tools/call', params: { name, arguments: args } },
            toolCallResultSchema,
            options(signal),
          ),
    // Given no cursor, the SDK walks every page itself.
    listResources: async (signal) =>
      (await client.listResources(undefined, options(signal))).resources,
    listResourceTemplates: async (signal) =>
      (await client.listResourceTemplates(undefined, options(signal))).resourceTemplates,
    readResource: (uri, signal) => client.readResource({ uri }, options(signal)),
  };
}

function byName(tools: readonly McpEpochTool[], name: string): McpEpochTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new Error(`no tool ${name} in ${tools.map((candidate) => candidate.name).join(', ')}`);
  }
  return tool;
}

const run = (tool: McpEpochTool, args: Record<string, unknown> = {}): Promise<ToolResult> =>
  tool.execute(args, { signal: new AbortController().signal });

function texts(result: ToolResult): string[] {
  return result.content.flatMap((block: ToolContent) =>
    block.type === 'text' ? [block.text] : [],
  );
}

interface ResourceListing {
  resources: { uri?: string; uriTemplate?: string; name: string; mimeType?: string }[];
  note?: string;
}

function listing(result: ToolResult): ResourceListing {
  const [text] = texts(result);
  return JSON.parse(text ?? '') as ResourceListing;
}

describe('reference server tools over stdio', () => {
  let server: Connected;

  beforeAll(async () => {
    server = await connect('everything', [EVERYTHING_ENTRY, 'stdio']);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('names every tool mcp__everything__<tool> and keeps the raw name', () => {
    for (const tool of server.tools) {
      expect(tool.name).toMatch(PROVIDER_PATTERN);
      expect(tool.server).toBe('everything');
    }
    const sum = byName(server.tools, 'mcp__everything__get-sum');
    expect(sum.target).toEqual({ kind: 'tool', name: 'get-sum' });
  });

  it('passes titles, descriptions, schemas and annotations through as the server gave them', () => {
    const echo = byName(server.tools, 'mcp__everything__echo');
    expect(echo.title).toBe('Echo Tool');
    expect(echo.description).toBe('Echoes back the input string');
    expect(echo.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
    });
    expect(echo.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    const gzip = byName(server.tools, 'mcp__everything__gzip-file-as-resource');
    expect(gzip.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it('calls echo and get-sum through execute', async () => {
    const echo = await run(byName(server.tools, 'mcp__everything__echo'), { message: 'hello' });
    expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
    const sum = await run(byName(server.tools, 'mcp__everything__get-sum'), { a: 2, b: 40 });
    expect(texts(sum)).toEqual(['The sum of 2 and 40 is 42.']);
  });

  it('returns structured content next to its text', async () => {
    const result = await run(byName(server.tools, 'mcp__everything__get-structured-content'), {
      location: 'Chicago',
    });
    expect(result.structuredContent).toEqual({
      temperature: 36,
      conditions: 'Light rain / drizzle',
      humidity: 82,
    });
    expect(JSON.parse(texts(result)[0] ?? '')).toEqual(result.structuredContent);
  });

  it('keeps image, embedded resource and resource_link content', async () => {
    const image = await run(byName(server.tools, 'mcp__everything__get-tiny-image'));
    expect(image.content.map((block) => block.type)).toEqual(['text', 'image', 'text']);
    expect(image.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(image.content[1]?.type === 'image' && image.content[1].data.length > 100).toBe(true);

    const reference = await run(byName(server.tools, 'mcp__everything__get-resource-reference'), {
      resourceType: 'Blob',
      resourceId: 2,
    });
    expect(reference.content[1]).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/blob/2', mimeType: 'text/plain' },
    });

    const links = await run(byName(server.tools, 'mcp__everything__get-resource-links'), {
      count: 2,
    });
    expect(links.content.slice(1)).toEqual([
      {
        type: 'resource_link',
        uri: 'demo://resource/dynamic/blob/1',
        name: 'Blob Resource 1',
        mimeType: 'text/plain',
        description: 'Resource 1: plaintext resource',
      },
      {
        type: 'resource_link',
        uri: 'demo://resource/dynamic/text/2',
        name: 'Text Resource 2',
        mimeType: 'text/plain',
        description: 'Resource 2: plaintext resource',
      },
    ]);
  });

  it('lists resources and reads text and blob resources through the two resource tools', async () => {
    const list = byName(server.tools, 'mcp__everything__list_resources');
    const read = byName(server.tools, 'mcp__everything__read_resource');
    expect(list.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(read.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(read.inputSchema).toMatchObject({ required: ['uri'] });

    const listed = listing(await run(list));
    // Templates first, then every resource; the whole list fits, so no note.
    expect(listed.resources.slice(0, 2).map((entry) => entry.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    const uris = listed.resources.map((resource) => resource.uri);
    expect(uris).toContain('demo://resource/static/document/instructions.md');
    expect(listed.note).toBeUndefined();

    const text = await run(read, { uri: 'demo://resource/static/document/instructions.md' });
    expect(text.content).toHaveLength(1);
    expect(text.content[0]?.type).toBe('text');
    expect(texts(text)[0]?.length).toBeGreaterThan(50);

    const blob = await run(read, { uri: 'demo://resource/dynamic/blob/7' });
    expect(blob.content).toHaveLength(1);
    const [embedded] = blob.content;
    expect(embedded).toMatchObject({
      type: 'resource',
      resource: { uri: 'demo://resource/dynamic/blob/7' },
    });
    const data = embedded?.type === 'resource' ? embedded.resource.blob : undefined;
    expect(Buffer.from(data ?? '', 'base64').toString('utf8')).toMatch(
      /^Resource 7: This is a base64 blob/,
    );
  });

  it('rejects a call when ctx.signal aborts, and the connection keeps working', async () => {
    const longRunning = byName(server.tools, 'mcp__everything__trigger-long-running-operation');
    const controller = new AbortController();
    // Stopped once the call is on its way to the server, not at a time that may come first.
    const sent = server.calling('trigger-long-running-operation');
    const pending = longRunning.execute(
      { duration: 120, steps: 120 },
      { signal: controller.signal },
    );
    await sent;
    controller.abort(new Error('user pressed stop'));
    await expect(pending).rejects.toThrow();
    const echo = await run(byName(server.tools, 'mcp__everything__echo'), {
      message: 'still here',
    });
    expect(texts(echo)).toEqual(['Echo: still here']);
  });
});

describe('fixture server tools over stdio', () => {
  let server: Connected;

  beforeAll(async () => {
    server = await connect('shapes', [FIXTURE], 'lenient');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('answers arguments of the wrong shape with an error the model can read', async () => {
    const list = byName(server.tools, 'mcp__shapes__list_resources');
    const read = byName(server.tools, 'mcp__shapes__read_resource');
    const badFilter = await run(list, { filter: 7 });
    expect(badFilter.isError).toBe(true);
    expect(texts(badFilter)[0]).toContain('mcp__shapes__list_resources: "filter" must be');
    for (const offset of [-1, 1.5, '3']) {
      const badOffset = await run(list, { offset });
      expect(badOffset.isError).toBe(true);
      expect(texts(badOffset)[0]).toContain('"offset" must be a whole number');
    }
    const noUri = await run(read, {});
    expect(noUri.isError).toBe(true);
    expect(texts(noUri)[0]).toContain('"uri" is required');
    const read1 = await run(read, { uri: 'fixture://doc/1' });
    expect(read1.content).toEqual([{ type: 'text', text: 'text of fixture://doc/1' }]);
  });

  it('keeps a content block of an unknown type as text beside the others', async () => {
    const result = await run(byName(server.tools, 'mcp__shapes__odd-content'));
    expect(result.content).toHaveLength(2);
    expect(result.content[0]).toEqual({ type: 'text', text: 'before' });
    const [, odd] = texts(result);
    expect(odd).toContain('MCP server "shapes" tool "odd-content"');
    expect(odd).toContain('type "hologram"');
    expect(odd).toContain('"frames":3');
  });

  it('keeps absent descriptions and hints absent', () => {
    const [bare] = server.tools.filter(
      (tool) => tool.target.kind === 'tool' && tool.target.name === 'a.b',
    );
    expect(bare?.description).toBe('');
    expect(bare?.annotations).toEqual({});
    expect(bare && 'title' in bare).toBe(false);
    const partly = byName(server.tools, 'mcp__shapes__partly-annotated');
    expect(partly.annotations).toEqual({ destructiveHint: true });
  });

  it('renames tools that collide within the server and calls each by its raw name', async () => {
    const names = server.tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    const raw = (name: string) =>
      server.tools.find((tool) => tool.target.kind === 'tool' && tool.target.name === name);
    expect(raw('a.b')?.name).toMatch(/^mcp__shapes__a_b_[0-9a-f]{8}$/);
    expect(raw('a_b')?.name).toMatch(/^mcp__shapes__a_b_[0-9a-f]{8}$/);
    expect(raw('list_resources')?.name).toMatch(/^mcp__shapes__list_resources_[0-9a-f]{8}$/);
    expect(byName(server.tools, 'mcp__shapes__list_resources').target).toEqual({
      kind: 'list_resources',
    });
    const dotted = raw('a.b');
    expect(dotted && texts(await run(dotted))).toEqual(['called a.b']);
  });
});

describe('a server without the resources capability', () => {
  it('gets no resource tools', async () => {
    const server = await connect('bare', [FIXTURE, '--no-resources']);
    try {
      const names = server.tools.map((tool) => tool.name);
      expect(names).toContain('mcp__bare__partly-annotated');
      expect(names).not.toContain('mcp__bare__read_resource');
      expect(server.tools.filter((tool) => tool.target.kind !== 'tool')).toEqual([]);
      // The server's own tool of that name is not a resource tool and needs no rename here.
      expect(names).toContain('mcp__bare__list_resources');
    } finally {
      await server.close();
    }
  });
});
