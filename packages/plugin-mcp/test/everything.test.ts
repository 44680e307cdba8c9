// Issue 3 acceptance: McpRegistry against the reference server (`server-everything`) in all three
// transports, each on 127.0.0.1. First, proof that the harness never exposes the remote modes to
// the network.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EpochTool, ToolContent, ToolResult } from '@epoch-agent/protocol';
import {
  type EverythingEndpoint,
  type EverythingTransport,
  endpointConfig,
  listeningAddresses,
  type RunningEverything,
  startEverything,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpServerConfig } from '../src/types.js';

/** Every address of this machine that is not loopback (link-local IPv6 needs a scope: skipped). */
function nonLoopbackAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => entry.address);
}

function connectTo(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, timeout: 5_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(
        Object.assign(new Error(`timed out connecting to ${host}:${port}`), { code: 'ETIMEDOUT' }),
      );
    });
    socket.once('error', reject);
  });
}

describe('the server-everything harness', () => {
  it.each(['sse', 'http'] as const)(
    'binds %s to 127.0.0.1 only and stop() closes it',
    async (transport) => {
      const server = await startEverything(transport);
      let port = 0;
      try {
        if (server.endpoint.transport === 'stdio') {
          throw new Error('expected a remote endpoint');
        }
        port = server.endpoint.port;
        expect(server.endpoint.url.startsWith(`http://127.0.0.1:${port}/`)).toBe(true);
        // What the kernel bound, not what the server says: one listener, on 127.0.0.1.
        expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
        await connectTo('127.0.0.1', port);
        for (const address of nonLoopbackAddresses()) {
          await expect(connectTo(address, port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
        }
      } finally {
        await server.stop();
      }
      expect(listeningAddresses(port)).toEqual([]);
    },
  );
});

const SERVER = 'everything';

function configFor(endpoint: EverythingEndpoint): McpServerConfig {
  // Keepalive, idle and lifetime timers stay off: they are not what this test is about.
  return endpointConfig(SERVER, endpoint, {
    timeoutMs: 20_000,
    connectTimeoutMs: 20_000,
    supportsParallel: false,
  });
}

function toolNamed(tools: readonly EpochTool[], name: string): EpochTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new Error(`no tool ${name} in ${tools.map((candidate) => candidate.name).join(', ')}`);
  }
  return tool;
}

const run = (tool: EpochTool, args: Record<string, unknown> = {}): Promise<ToolResult> =>
  tool.execute(args, { signal: new AbortController().signal });

const texts = (result: ToolResult): string[] =>
  result.content.flatMap((block: ToolContent) => (block.type === 'text' ? [block.text] : []));

describe.each(['stdio', 'sse', 'http'] as const satisfies readonly EverythingTransport[])(
  'McpRegistry against server-everything over %s',
  (transport) => {
    let home: string;
    let previousHome: string | undefined;
    let server: RunningEverything | undefined;
    let registry: McpRegistry | undefined;
    let tools: readonly EpochTool[] = [];

    beforeAll(async () => {
      previousHome = process.env.EPOCH_HOME;
      home = await mkdtemp(join(tmpdir(), 'epoch-everything-'));
      process.env.EPOCH_HOME = home;
      server = await startEverything(transport);
      registry = new McpRegistry();
      await registry.connectAll([configFor(server.endpoint)], 'user');
      tools = registry.tools();
    });

    afterAll(async () => {
      try {
        await registry?.disconnectAll();
      } finally {
        await server?.stop();
        if (previousHome === undefined) {
          delete process.env.EPOCH_HOME;
        } else {
          process.env.EPOCH_HOME = previousHome;
        }
        await rm(home, { recursive: true, force: true });
      }
    });

    it('connects and lists the tools with their titles and annotations', () => {
      const status = registry?.statuses().find((candidate) => candidate.name === SERVER);
      expect(status).toMatchObject({ name: SERVER, source: 'user', transport, state: 'connected' });
      const echo = toolNamed(tools, 'mcp__everything__echo');
      expect(echo.title).toBe('Echo Tool');
      expect(echo.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(toolNamed(tools, 'mcp__everything__gzip-file-as-resource').annotations).toMatchObject({
        readOnlyHint: false,
        openWorldHint: true,
      });
    });

    it('calls echo and get-sum', async () => {
      const echo = await run(toolNamed(tools, 'mcp__everything__echo'), { message: transport });
      expect(texts(echo)).toEqual([`Echo: ${transport}`]);
      const sum = await run(toolNamed(tools, 'mcp__everything__get-sum'), { a: 19, b: 23 });
      expect(texts(sum)).toEqual(['The sum of 19 and 23 is 42.']);
    });

    it('returns structured content', async () => {
      const result = await run(toolNamed(tools, 'mcp__everything__get-structured-content'), {
        location: 'Los Angeles',
      });
      expect(result.structuredContent).toEqual({
        temperature: 73,
        conditions: 'Sunny / Clear',
        humidity: 48,
      });
    });

    it('lists resources and templates and reads one through the two resource tools', async () => {
      const listed = await run(toolNamed(tools, 'mcp__everything__list_resources'));
      const page = JSON.parse(texts(listed)[0] ?? '') as {
        resources: { uri?: string; uriTemplate?: string }[];
      };
      const uri = 'demo://resource/static/document/instructions.md';
      expect(page.resources.map((resource) => resource.uri)).toContain(uri);
      expect(page.resources.map((resource) => resource.uriTemplate)).toContain(
        'demo://resource/dynamic/text/{resourceId}',
      );
      const read = await run(toolNamed(tools, 'mcp__everything__read_resource'), { uri });
      expect(read.content).toHaveLength(1);
      expect(texts(read)[0]?.length).toBeGreaterThan(50);
    });

    it('lists prompts and fetches one with arguments', async () => {
      const prompts = (await registry?.listPrompts()) ?? [];
      const names = prompts.map(({ server: owner, prompt }) => `${owner}/${prompt.name}`);
      expect(names).toEqual(
        expect.arrayContaining(['everything/args-prompt', 'everything/simple-prompt']),
      );
      const simple = await registry?.getPrompt(SERVER, 'simple-prompt');
      expect(simple?.messages).toEqual([
        {
          role: 'user',
          content: { type: 'text', text: 'This is a simple prompt without arguments.' },
        },
      ]);
      const prompt = await registry?.getPrompt(SERVER, 'args-prompt', {
        city: 'Oslo',
        state: 'Viken',
      });
      expect(prompt?.messages).toEqual([
        { role: 'user', content: { type: 'text', text: "What's weather in Oslo, Viken?" } },
      ]);
    });
  },
);
