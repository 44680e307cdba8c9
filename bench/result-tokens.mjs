// What one real tool result costs the model: a read of a 60 KB text file by the reference
// filesystem server (`@modelcontextprotocol/server-filesystem`, whose reads send the file both as
// text and as structuredContent), through the runtime (EpochTool.execute) and an adapter
// (Anthropic's tool_result: every adapter gives the same text), counted with the estimator every
// package uses. One copy of the file is about 15,300 tokens; both copies were twice that, then cut
// to the 25,000 of the default max_output_tokens.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { estimateTokens } from '@epoch-agent/infra';
import { prefixedName } from '@epoch-agent/plugin-mcp';
import { buildRuntime } from '@epoch-agent/runtime';
import { toAnthropicToolResult } from '@epoch-agent/runtime/adapters';
import { scoped } from './scoped.mjs';

const FILESYSTEM = fileURLToPath(
  import.meta.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
);
const LINE = 'A line of a text file that the model asked to read, with some words in it.\n';
/** About 60 KB. */
const FILE_TEXT = LINE.repeat(Math.ceil(60_000 / LINE.length));

export async function filesystemReadTokens(signal) {
  return scoped(async (defer) => {
    const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-read-'));
    defer(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'notes.txt');
    await writeFile(file, FILE_TEXT);
    const configFile = join(dir, 'mcp.json');
    await writeFile(
      configFile,
      JSON.stringify({
        servers: { files: { command: process.execPath, args: [FILESYSTEM, dir] } },
      }),
    );
    const runtime = await buildRuntime({ configFile, registry: { schemaCache: null }, signal });
    defer(() => runtime.close());
    const rows = [];
    for (const name of ['read_text_file', 'read_file']) {
      const tool = runtime.tools.get(prefixedName('files', name));
      if (tool === undefined) throw new Error(`result bench: no tool ${name} on server-filesystem`);
      const result = await tool.execute({ path: file }, { signal });
      const block = toAnthropicToolResult('toolu_bench', result);
      const tokens = (block.content ?? []).reduce(
        (sum, part) => sum + (part.type === 'text' ? estimateTokens(part.text) : 0),
        0,
      );
      rows.push({
        metric: `tokens the model gets of a ${Math.round(FILE_TEXT.length / 1000)} KB server-filesystem ${name}`,
        ours: tokens,
        base: estimateTokens(FILE_TEXT),
        unit: 'tokens',
        // One copy of the file, and nothing cut: the file's own tokens and no more.
        goal: { kind: 'ratio', max: 1.01 },
      });
    }
    return rows;
  });
}
