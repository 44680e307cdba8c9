// max_output_tokens through the runtime, on a real server process: the runtime's default for the
// servers whose entry sets none, the entry's own cap where it does, and an edit of the cap in the
// user's mcp.json applied to the running server without reconnecting it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prefixedName } from '@epoch-agent/plugin-mcp';
import type { ToolResult } from '@epoch-agent/protocol';
import type { Runtime } from '@epoch-agent/runtime';
import { expect, it } from 'vitest';
import { useRuntimeHome } from './runtime-helpers.js';

const BIG_SERVER = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'plugin-mcp',
  'test',
  'fixtures',
  'big-result-server.mjs',
);
const big = { command: process.execPath, args: [BIG_SERVER] };

const t = useRuntimeHome();

/** The length of the text the model gets from `server`'s 10,000-character result. */
async function textGiven(runtime: Runtime, server: string): Promise<number> {
  const tool = runtime.tools.get(prefixedName(server, 'text'));
  if (tool === undefined) throw new Error(`no text tool for "${server}"`);
  const result: ToolResult = await tool.execute(
    { chars: 10_000 },
    { signal: new AbortController().signal },
  );
  const [first] = result.content;
  return first?.type === 'text' ? first.text.length : 0;
}

it('the runtime’s maxOutputTokens holds every server whose entry sets none; the entry’s own wins, and an edit of it needs no reconnect', async () => {
  await t.home.writeUserConfig({ plain: big, own: { ...big, max_output_tokens: 1_000 } });
  const runtime = await t.build({ registry: { schemaCache: null, maxOutputTokens: 500 } });
  expect(await textGiven(runtime, 'plain')).toBe(2_000);
  expect(await textGiven(runtime, 'own')).toBe(4_000);

  await t.home.writeUserConfig({ plain: big, own: { ...big, maxOutputTokens: 2_000 } });
  const applied = await runtime.applyMcpConfig();
  expect(applied.reconnected).toEqual([]);
  expect(applied.unchanged).toEqual(['plain', 'own']);
  expect(await textGiven(runtime, 'own')).toBe(8_000);

  await t.home.writeUserConfig({ plain: big, own: big });
  await runtime.applyMcpConfig();
  expect(await textGiven(runtime, 'own')).toBe(2_000);
});

it('a maxOutputTokens that is not a whole number of tokens from 1 to 10,000,000 is refused', async () => {
  for (const maxOutputTokens of [0, 2.5, 20_000_000]) {
    await expect(t.build({ registry: { maxOutputTokens } })).rejects.toThrow(RangeError);
  }
});
