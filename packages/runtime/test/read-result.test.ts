// What the model gets of a result through the runtime: one copy and no block for the user only, in
// every adapter (on the hand-written result-shapes server and a real server-filesystem read), and
// `mcp_read_result`, offered from the first cut result on, reading the rest of it in pieces, each
// within the cap, by the id its note gave and nothing else.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { estimateTokens } from '@epoch-agent/infra';
import { prefixedName } from '@epoch-agent/plugin-mcp';
import type { ToolResult } from '@epoch-agent/protocol';
import {
  READ_RESULT_TOOL_NAME,
  RESULTS_GROUP,
  type Runtime,
  type ToolRegistryChange,
} from '@epoch-agent/runtime';
import {
  toAiSdkToolOutput,
  toAnthropicToolResult,
  toOpenAIChatToolResult,
  toOpenAIResponsesToolOutput,
} from '@epoch-agent/runtime/adapters';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { useRuntimeHome } from './runtime-helpers.js';

const FIXTURES = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'plugin-mcp',
  'test',
  'fixtures',
);
const big = { command: process.execPath, args: [join(FIXTURES, 'big-result-server.mjs')] };
const shapes = { command: process.execPath, args: [join(FIXTURES, 'result-shapes-server.mjs')] };
const FILESYSTEM = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
);
const CTX = { signal: new AbortController().signal };

const t = useRuntimeHome();
let files: string;

beforeEach(async () => {
  files = await mkdtemp(join(tmpdir(), 'epoch-read-result-'));
});

afterEach(async () => {
  await rm(files, { recursive: true, force: true });
});

async function run(runtime: Runtime, name: string, args: object = {}): Promise<ToolResult> {
  const tool = runtime.tools.get(name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.execute({ ...args }, CTX);
}

function text(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** What each adapter sends the model, as one string per adapter. */
function adapted(result: ToolResult): string[] {
  return [
    toAnthropicToolResult('toolu_1', result),
    toOpenAIChatToolResult('call_1', result).message,
    toOpenAIResponsesToolOutput('call_1', result),
    toAiSdkToolOutput(result),
  ].map((output) => JSON.stringify(output));
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

it('every adapter gives one copy of a result, and no block for the user only', async () => {
  const line = 'A line of a file that the model asked to read, with words in it.';
  await writeFile(join(files, 'notes.txt'), `${line}\n`.repeat(940));
  await t.home.writeUserConfig({
    shapes,
    files: { command: process.execPath, args: [FILESYSTEM, files] },
  });
  const runtime = await t.build({ registry: { schemaCache: null } });

  const read = await run(runtime, prefixedName('files', 'read_text_file'), {
    path: join(files, 'notes.txt'),
  });
  for (const output of adapted(read)) expect(occurrences(output, line)).toBe(940);

  const summary = await run(runtime, prefixedName('shapes', 'summary'));
  for (const output of adapted(summary)) {
    expect(output).not.toContain('Found 2 rows.');
    expect(occurrences(output, 'alpha')).toBe(1);
  }
  const audience = await run(runtime, prefixedName('shapes', 'audience'));
  for (const output of adapted(audience)) {
    expect(output).not.toContain('shown to the user only');
    expect(output).toContain('for both');
    expect(output).toContain('for the model');
  }
  // A host's own result that carries a block for the user only: left out all the same.
  for (const output of adapted({
    content: [
      { type: 'text', text: 'secret plan', annotations: { audience: ['user'] } },
      { type: 'text', text: 'done' },
    ],
  })) {
    expect(output).not.toContain('secret plan');
  }
});

it('mcp_read_result is offered once a result was cut, and reads the rest of it in pieces within the cap', async () => {
  await t.home.writeUserConfig({ big });
  const runtime = await t.build({ registry: { schemaCache: null, maxOutputTokens: 500 } });
  const changes: ToolRegistryChange[] = [];
  runtime.tools.onChange((change) => changes.push(change));
  expect(runtime.tools.get(READ_RESULT_TOOL_NAME)).toBeUndefined();

  // One that fits offers nothing.
  await run(runtime, prefixedName('big', 'text'), { chars: 1_000 });
  expect(runtime.tools.get(READ_RESULT_TOOL_NAME)).toBeUndefined();

  const cut = await run(runtime, prefixedName('big', 'text'), { chars: 10_000 });
  const note = text(cut).split('\n').at(-1) ?? '';
  const match =
    /saved as result "([0-9a-f]{8})": read the rest with the tool mcp_read_result and \{"id": "\1", "offset": (\d+)\}/.exec(
      note,
    );
  expect(match).not.toBeNull();
  const [, id, offset] = match as RegExpExecArray;
  expect(note).not.toContain('tool-results');
  expect(changes).toEqual([
    expect.objectContaining({ kind: 'set', group: RESULTS_GROUP, added: [READ_RESULT_TOOL_NAME] }),
  ]);

  const uncut = runtime.mcp
    .toolsOf('big')
    .find(({ target }) => target.kind === 'tool' && target.name === 'text');
  const whole = text((await uncut?.executeUncut({ chars: 10_000 }, CTX)) as ToolResult);
  expect(whole).toHaveLength(10_000);
  const shown = cut.content[0]?.type === 'text' ? cut.content[0].text : '';
  expect(Number(offset)).toBe(shown.length);

  // The rest, a piece at a time: each answer within the 500 tokens of the cap.
  let read = shown;
  let next: number | undefined = Number(offset);
  while (next !== undefined) {
    const piece = await run(runtime, READ_RESULT_TOOL_NAME, { id, offset: next });
    expect(piece.isError).toBeUndefined();
    const answer = text(piece);
    expect(estimateTokens(answer)).toBeLessThanOrEqual(500);
    const [header = '', ...body] = answer.split('\n');
    read += body.join('\n');
    const on = /read on with \{"id": "[0-9a-f]{8}", "offset": (\d+)\}/.exec(header);
    next = on === null ? undefined : Number(on[1]);
    if (on === null) expect(header).toContain('this is its end');
  }
  expect(read).toBe(whole.slice(0, 10_000));

  // A length of its own, shorter than the cap.
  const short = text(await run(runtime, READ_RESULT_TOOL_NAME, { id, offset: 0, length: 10 }));
  expect(short.split('\n').slice(1).join('\n')).toBe(whole.slice(0, 10));
  expect(short).toContain(
    `Characters 0 to 10 of 10000 of result "${id}" of MCP server "big" tool "text"`,
  );
});

it('mcp_read_result refuses an id it did not hand out, a path, and arguments of the wrong kind', async () => {
  await t.home.writeUserConfig({ big });
  const runtime = await t.build({ registry: { schemaCache: null, maxOutputTokens: 500 } });
  await run(runtime, prefixedName('big', 'text'), { chars: 10_000 });
  for (const id of ['deadbeef', join(t.home.dir, 'tool-results'), '../../etc/passwd']) {
    const refused = await run(runtime, READ_RESULT_TOOL_NAME, { id });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('was saved by this process: use the id a cut result');
  }
  for (const args of [{}, { id: 'x', offset: -1 }]) {
    expect((await run(runtime, READ_RESULT_TOOL_NAME, args)).isError).toBe(true);
  }
  // Nor can a host's own tool take its name.
  const impostor = {
    ...(runtime.tools.get(READ_RESULT_TOOL_NAME) as object),
    name: READ_RESULT_TOOL_NAME,
  };
  expect(() => runtime.tools.setGroup('builtin', [impostor as never])).toThrow(
    expect.objectContaining({ code: 'invalid_tool_name' }),
  );
});
