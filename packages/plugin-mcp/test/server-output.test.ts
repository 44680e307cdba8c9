// A server's recent output as the registry keeps it for a person (McpRegistry.outputOf): its log
// messages and its stderr lines, from real servers, in the order they came, redacted, bounded,
// kept across a reconnect, and read from where a reader left off.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EpochTool } from '@epoch-agent/protocol';
import { FIXTURE_SERVER, fixtureServerArgs, stdioConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTPUT_MAX_LINE_CHARS, OUTPUT_MAX_LINES } from '../src/connection/server-output.js';
import { McpRegistry } from '../src/registry/registry.js';

const SECRET = 'sk-live-output-must-not-leak-7171';
const registries: McpRegistry[] = [];

afterEach(async () => {
  await Promise.all(registries.splice(0).map((registry) => registry.disconnectAll()));
});

function registry(): McpRegistry {
  const made = new McpRegistry({ schemaCache: null, reconnectDelaysMs: [] });
  registries.push(made);
  return made;
}

function call(tools: readonly EpochTool[], name: string, args: Record<string, unknown>) {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute(args, { signal: new AbortController().signal });
}

describe("a server's recent output", () => {
  it('keeps its log messages with level and logger, its secrets redacted, and reads on from a seq', async () => {
    const mcp = registry();
    await mcp.connectAll(
      [
        stdioConfig('chatty', process.execPath, fixtureServerArgs('progress'), {
          env: { API_TOKEN: SECRET },
        }),
      ],
      'user',
    );
    await call(mcp.tools(), 'mcp__chatty__log', {
      count: 2,
      level: 'warning',
      text: `token ${SECRET}`,
    });
    const first = mcp.outputOf('chatty');
    expect(
      first?.lines.map(({ stream, ...line }) => [
        stream,
        'level' in line && line.level,
        'logger' in line && line.logger,
        line.text,
      ]),
    ).toEqual([
      ['log', 'warning', 'fixture', 'token <redacted> 1'],
      ['log', 'warning', 'fixture', 'token <redacted> 2'],
    ]);
    expect(JSON.stringify(first)).not.toContain(SECRET);
    expect(first?.dropped).toBe(0);

    await call(mcp.tools(), 'mcp__chatty__log', { count: 1, level: 'error', text: 'disk full' });
    const more = mcp.outputOf('chatty', first?.last);
    expect(more?.lines.map((line) => line.text)).toEqual(['disk full 1']);
    expect(more?.last).toBe((first?.last ?? 0) + 1);
    expect(mcp.outputOf('nobody')).toBeUndefined();
  });

  it('keeps what a server wrote to stderr before it failed, and its log messages after it reconnected, in one output', async () => {
    const dies = join(process.env.EPOCH_HOME as string, 'output-dies');
    await writeFile(dies, '');
    const mcp = registry();
    const [status] = await mcp.connectAll(
      [
        stdioConfig('phoenix', process.execPath, [
          FIXTURE_SERVER,
          '--catalog=progress',
          `--exit-at-start-if=${dies}`,
        ]),
      ],
      'user',
    );
    expect(status?.state).toBe('failed');
    const failed = mcp.outputOf('phoenix');
    expect(failed?.lines.length).toBeGreaterThan(0);
    expect(failed?.lines.every((line) => line.stream === 'stderr')).toBe(true);

    await rm(dies);
    expect((await mcp.reconnect('phoenix')).state).toBe('connected');
    await call(mcp.tools(), 'mcp__phoenix__log', { count: 1, text: 'back' });
    const after = mcp.outputOf('phoenix');
    expect(after?.lines.slice(0, failed?.lines.length)).toEqual(failed?.lines);
    expect(after?.lines.at(-1)).toMatchObject({ stream: 'log', text: 'back 1' });
  });

  it('is bounded: the oldest lines go, counted as dropped, and a long line is cut', async () => {
    const mcp = registry();
    await mcp.connectAll(
      [stdioConfig('flood', process.execPath, fixtureServerArgs('progress'))],
      'user',
    );
    const sent = OUTPUT_MAX_LINES + 50;
    await call(mcp.tools(), 'mcp__flood__log', { count: sent, text: 'spam' });
    const output = mcp.outputOf('flood');
    expect(output?.lines).toHaveLength(OUTPUT_MAX_LINES);
    expect(output?.lines[0]?.text).toBe('spam 51');
    expect(output?.dropped).toBe(50);
    expect(output?.last).toBe(sent);

    await call(mcp.tools(), 'mcp__flood__log', {
      count: 1,
      text: 'x'.repeat(OUTPUT_MAX_LINE_CHARS * 3),
    });
    const long = mcp.outputOf('flood', sent);
    expect(long?.lines[0]?.text).toHaveLength(OUTPUT_MAX_LINE_CHARS + 1);
  });
});
