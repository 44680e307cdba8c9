// The adapters load no provider SDK: their types match the SDKs', and that is all they take from
// them. A fresh Node process imports the built subpath and converts a tool and a result.
import { fileURLToPath } from 'node:url';
import { modulesLoadedBy } from '@epoch-agent/testkit';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

it('@epoch-agent/runtime/adapters converts a tool and a result for every API with no provider SDK loaded', () => {
  const script = `const a = await import('@epoch-agent/runtime/adapters');
const tool = { name: 't', description: 'd', inputSchema: { type: 'object', properties: {} }, annotations: {}, execute: async () => ({ content: [] }) };
const result = { content: [{ type: 'text', text: 'x' }] };
a.toAnthropicTools([tool]); a.toAnthropicToolResult('1', result);
a.toOpenAIChatTools([tool], { strict: true }); a.toOpenAIChatToolResult('1', result);
a.toOpenAIResponsesTools([tool]); a.toOpenAIResponsesToolOutput('1', result);
a.toAiSdkTools([tool]).t.toModelOutput({ output: result });`;
  const ran = modulesLoadedBy(['--input-type=module', '-e', script], { cwd: ROOT });
  expect(ran.status, ran.stderr).toBe(0);
  expect(ran.urls.some((url) => url.includes('/runtime/dist/adapters/index.js'))).toBe(true);
  const providers = ran.urls.filter((url) =>
    /\/node_modules\/(@anthropic-ai\/|openai\/|ai\/|@ai-sdk\/)/.test(url),
  );
  expect(providers).toEqual([]);
});
