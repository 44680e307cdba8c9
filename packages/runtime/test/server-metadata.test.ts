// What a server says about itself and its tools reaches a host: its instructions and icons on its
// `connected` status, each tool's outputSchema, icons and _meta on the tool object. Real servers of
// both eras: the reference server (2025 revisions) and the 2026-07-28 fixture server, which answers
// the 2025 revisions too with --legacy-only.
import {
  MAX_INSTRUCTIONS_CHARS,
  type McpEpochTool,
  type McpServerStatus,
} from '@epoch-agent/runtime';
import { EVERYTHING_ENTRY, FIXTURE_SERVER, MODERN_SERVER } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import { useRuntimeHome } from './runtime-helpers.js';

const test = useRuntimeHome();

function connected(status: McpServerStatus | undefined) {
  if (status?.state !== 'connected') throw new Error(`expected connected, got ${status?.state}`);
  return status;
}

describe("a server's instructions, icons, outputSchema and _meta", () => {
  it('the reference server: its instructions on its status, a tool with an outputSchema', async () => {
    const runtime = await test.build({
      registry: { schemaCache: null },
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
        },
      },
    });
    const status = connected(runtime.mcp.statuses()[0]);
    expect(status.protocol.era).toBe('legacy');
    expect(status.instructions).toContain('Everything Server');
    const structured = runtime.mcp
      .tools()
      .find((tool) => tool.target.kind === 'tool' && tool.target.name === 'get-structured-content');
    expect(structured?.outputSchema).toMatchObject({ type: 'object' });
  });

  it.each([
    ['modern', ['--modern-only']],
    ['legacy', ['--legacy-only']],
  ])(
    'the %s-era fixture server: instructions and icons of the server, icons and _meta of a tool',
    async (era, flags) => {
      const entry = { command: process.execPath, args: [MODERN_SERVER, ...flags] };
      const runtime = await test.build({
        hostCapabilities: { namespace: 'acme', mcpServers: { m: entry } },
      });
      const status = connected(runtime.mcp.statuses()[0]);
      expect(status.protocol.era).toBe(era);
      expect(status.instructions).toBe('Call whoami to learn which process answers.');
      expect(status.serverInfo.icons).toEqual([
        { src: 'data:image/svg+xml;base64,PHN2Zy8+', mimeType: 'image/svg+xml', sizes: ['any'] },
      ]);
      const whoami = runtime.mcp
        .tools()
        .find((tool) => tool.name.endsWith('__whoami')) as McpEpochTool;
      expect(whoami.icons?.[0]?.src).toBe('data:image/svg+xml;base64,PHN2Zy8+');
      expect(whoami._meta).toEqual({ 'example.com/kind': 'identity' });
      await runtime.close();

      // A second start connects from what the schema cache remembered (on 2026-07-28, no round trip
      // at all): the server's instructions and icons are still there. At start: on demand (a
      // host's default) it would not start until a call.
      const again = await test.build({
        hostCapabilities: { namespace: 'acme', mcpServers: { m: entry } },
        registry: { start: 'at_start' },
      });
      const remembered = connected(await connectedStatus(again));
      expect(remembered.instructions).toBe('Call whoami to learn which process answers.');
      expect(remembered.serverInfo.icons).toHaveLength(1);
    },
  );
});

/** The server's status once it is connected (a cached start offers its tools while connecting). */
async function connectedStatus(runtime: Awaited<ReturnType<typeof test.build>>) {
  const now = runtime.mcp.statuses()[0];
  if (now?.state === 'connected') return now;
  return new Promise<McpServerStatus>((resolve) => {
    const stop = runtime.mcp.onStatus((status) => {
      if (status.state !== 'connected') return;
      stop();
      resolve(status);
    });
  });
}

describe("a server's instructions, kept within bounds", () => {
  it('are cut past MAX_INSTRUCTIONS_CHARS with a line saying so, and a secret they echo is blanked', async () => {
    const secret = 'sk-instructions-echo-SECRET-41';
    const runtime = await test.build({
      registry: { schemaCache: null },
      hostCapabilities: {
        namespace: 'acme',
        mcpServers: {
          long: {
            command: process.execPath,
            args: [FIXTURE_SERVER, `--instructions=${MAX_INSTRUCTIONS_CHARS * 4}`],
            env: { API_KEY: secret },
          },
        },
      },
    });
    const { instructions = '' } = connected(runtime.mcp.statuses()[0]);
    expect(instructions).toContain('Call whoami.');
    expect(instructions).not.toContain(secret);
    expect(instructions.length).toBeLessThan(MAX_INSTRUCTIONS_CHARS + 200);
    expect(instructions).toMatch(
      new RegExp(
        `\\n\\[instructions cut: the server sent ${MAX_INSTRUCTIONS_CHARS * 4} characters`,
      ),
    );
  });
});
