// The adapters on real results: the reference server's tools (text, an image, resource links,
// embedded text and blob resources, structured content, a result with isError) and the fixture
// server's (an isError result, a call that only ends when cancelled, so its McpError), adapted for
// each API and assigned to that API's own request types, which tsc checks against the official
// SDKs (`@anthropic-ai/sdk`, `openai`, `ai`). The AI SDK's tools also run inside its real
// generateText, driven by its test model instead of a provider: no network.
import type Anthropic from '@anthropic-ai/sdk';
import { prefixedName } from '@epoch-agent/plugin-mcp';
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { buildRuntime, type Runtime } from '@epoch-agent/runtime';
import {
  executeTool,
  openAIToolArguments,
  TOOL_ERROR_LINE,
  toAiSdkToolOutput,
  toAiSdkTools,
  toAnthropicToolResult,
  toAnthropicTools,
  toOpenAIChatToolResult,
  toOpenAIChatTools,
  toOpenAIResponsesToolOutput,
  toOpenAIResponsesTools,
} from '@epoch-agent/runtime/adapters';
import { EVERYTHING_ENTRY, fixtureServerEntry } from '@epoch-agent/testkit';
import { asSchema, generateText, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TempHome, useTempHome } from './runtime-helpers.js';

let home: TempHome;
let runtime: Runtime;

beforeAll(async () => {
  home = await useTempHome();
  runtime = await buildRuntime({
    hostCapabilities: {
      namespace: 'host',
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
        fixture: fixtureServerEntry('cli'),
      },
    },
    registry: { schemaCache: null },
  });
  expect(runtime.mcp.statuses().map(({ state }) => state)).toEqual(['connected', 'connected']);
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  await home?.restore();
});

function tool(server: 'everything' | 'fixture', name: string): EpochTool {
  const found = runtime.tools.get(prefixedName(`host__${server}`, name));
  if (found === undefined) throw new Error(`no tool ${name} on ${server}`);
  return found;
}

const NEVER = new AbortController().signal;

async function call(
  server: 'everything' | 'fixture',
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return executeTool(tool(server, name), args, { signal: NEVER });
}

describe('tool definitions', () => {
  it('every tool of the reference server converts for each API, typed as its SDK takes it, with no $schema anywhere', () => {
    const tools = runtime.tools.tools();
    const withSchema = tools.filter((each) =>
      JSON.stringify(each.inputSchema).includes('"$schema"'),
    );
    // The reference server sends $schema (this test proves nothing if it stops doing so).
    expect(withSchema.length).toBeGreaterThan(5);

    const anthropic: Anthropic.Messages.MessageCreateParams['tools'] = toAnthropicTools(tools);
    const chat: OpenAI.Chat.Completions.ChatCompletionCreateParams['tools'] =
      toOpenAIChatTools(tools);
    const chatStrict: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAIChatTools(tools, {
      strict: true,
    });
    const responses: OpenAI.Responses.ResponseCreateParams['tools'] = toOpenAIResponsesTools(
      tools,
      { strict: true },
    );
    const aiSdk: ToolSet = toAiSdkTools(tools);

    for (const converted of [anthropic, chat, chatStrict, responses]) {
      expect(converted).toHaveLength(tools.length);
      expect(JSON.stringify(converted)).not.toContain('"$schema"');
    }
    expect(Object.keys(aiSdk)).toEqual(tools.map(({ name }) => name));
    const echo = tools.find(({ name }) => name.endsWith('__echo')) as EpochTool;
    expect(anthropic?.find((each) => 'name' in each && each.name === echo.name)).toMatchObject({
      description: echo.description,
      input_schema: { type: 'object', properties: { message: { type: 'string' } } },
    });
  });

  it('strict: a schema strict mode can take is made strict (optional properties nullable); a free-form one stays as it is', () => {
    const strict = toOpenAIChatTools(
      [tool('everything', 'get-resource-links'), tool('fixture', 'whoami')],
      {
        strict: true,
      },
    );
    expect(strict[0]?.function).toMatchObject({
      strict: true,
      parameters: {
        type: 'object',
        additionalProperties: false,
        required: ['count'],
        properties: { count: { type: ['number', 'null'] } },
      },
    });
    // Strict mode has no "default": the server's default applies once the null is taken out.
    expect(JSON.stringify(strict[0]?.function.parameters)).not.toContain('"default"');
    expect(strict[1]?.function.strict).toBe(false);
    const args = openAIToolArguments(tool('everything', 'get-resource-links'), '{"count":null}');
    expect(args).toEqual({ kind: 'arguments', args: {} });
  });
});

describe('results of the reference server', () => {
  it('text and an image: an image block for Anthropic and Responses, a follow-up user message for Chat Completions', async () => {
    const result = await call('everything', 'get-tiny-image');
    expect(result.content.map(({ type }) => type)).toEqual(['text', 'image', 'text']);

    const anthropic: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
      'toolu_1',
      result,
    );
    expect(anthropic.content).toMatchObject([
      { type: 'text' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png' } },
      { type: 'text' },
    ]);
    expect(anthropic.is_error).toBeUndefined();

    const chat = toOpenAIChatToolResult('call_1', result);
    const message: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = chat.message;
    expect(message.content).toContain(
      '[image/png 1 of this result follows in the next user message]',
    );
    const followUp: OpenAI.Chat.Completions.ChatCompletionMessageParam | undefined = chat.followUp;
    expect(followUp).toMatchObject({
      role: 'user',
      content: [
        { type: 'text' },
        {
          type: 'image_url',
          image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) },
        },
      ],
    });

    const responses: OpenAI.Responses.ResponseInputItem.FunctionCallOutput =
      toOpenAIResponsesToolOutput('call_1', result);
    expect(responses.output).toMatchObject([
      { type: 'input_text' },
      { type: 'input_image', image_url: expect.stringMatching(/^data:image\/png;base64,/) },
      { type: 'input_text' },
    ]);
  });

  it('resource links become a line each naming the link', async () => {
    const result = await call('everything', 'get-resource-links', { count: 2 });
    const links = result.content.filter((block) => block.type === 'resource_link');
    expect(links).toHaveLength(2);
    const chat = toOpenAIChatToolResult('call_2', result);
    for (const link of links) {
      expect(chat.message.content).toContain(`Resource link: ${link.name} ${link.uri}`);
    }
    expect(chat.followUp).toBeUndefined();
    const anthropic: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
      'toolu_2',
      result,
    );
    expect(anthropic.content).toEqual(
      expect.arrayContaining([
        { type: 'text', text: expect.stringContaining(`Resource link: ${links[0]?.name}`) },
      ]),
    );
  });

  it('an embedded text resource is its text under its uri; an embedded blob is a note for the provider APIs and a file for the AI SDK', async () => {
    const text = await call('everything', 'get-resource-reference', {
      resourceType: 'Text',
      resourceId: 1,
    });
    const embedded = text.content.find((block) => block.type === 'resource');
    if (embedded?.type !== 'resource' || embedded.resource.text === undefined)
      throw new Error('no text resource');
    const responses = toOpenAIResponsesToolOutput('call_3', text);
    expect(responses.output).toContain(
      `Resource ${embedded.resource.uri} (text/plain):\n${embedded.resource.text}`,
    );

    // A blob of a text type is text for every API.
    const textBlob = await call('everything', 'get-resource-reference', {
      resourceType: 'Blob',
      resourceId: 2,
    });
    const anthropicText: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
      'toolu_3',
      textBlob,
    );
    expect(JSON.stringify(anthropicText.content)).toContain(
      'Resource demo://resource/dynamic/blob/2 (text/plain):',
    );

    // Binary data (gzip, of a data: URI so no network is involved).
    const gzip = await call('everything', 'gzip-file-as-resource', {
      name: 'hello.txt.gz',
      data: `data:text/plain;base64,${Buffer.from('hello '.repeat(50)).toString('base64')}`,
      outputType: 'resource',
    });
    expect(gzip.content).toMatchObject([
      { type: 'resource', resource: { mimeType: 'application/gzip' } },
    ]);
    const anthropic: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
      'toolu_4',
      gzip,
    );
    expect(JSON.stringify(anthropic.content)).toMatch(
      /is not shown: Anthropic Messages takes no application\/gzip here/,
    );
    const chat = toOpenAIChatToolResult('call_4', gzip);
    expect(chat.message.content).toMatch(
      /not shown: OpenAI Chat Completions takes no application\/gzip/,
    );
    expect(chat.followUp).toBeUndefined();
    const aiSdk = toAiSdkToolOutput(gzip);
    expect(aiSdk).toMatchObject({
      type: 'content',
      value: [{ type: 'file-data', mediaType: 'application/gzip', filename: 'hello.txt.gz' }],
    });
  });

  it('structured content reaches the model once: a server that also sent it as text is not repeated', async () => {
    const result = await call('everything', 'get-structured-content', { location: 'Chicago' });
    expect(result.structuredContent).toBeDefined();
    const json = JSON.stringify(result.structuredContent);
    // The reference server sends the same JSON as a text block: it is not sent twice.
    const chat = toOpenAIChatToolResult('call_5', result).message.content;
    expect(chat.split('"temperature"')).toHaveLength(2);
    // A server that sends it only as structuredContent: the model gets it as text.
    const structuredContent = result.structuredContent as { [key: string]: unknown };
    expect(toOpenAIResponsesToolOutput('call_6', { content: [], structuredContent }).output).toBe(
      json,
    );
  });

  it('a result with isError: is_error for Anthropic, a first line for OpenAI, error-text for the AI SDK', async () => {
    // Arguments the tool's schema refuses: the reference server answers with an isError result.
    const refused = await call('everything', 'get-structured-content', { location: 'Atlantis' });
    expect(refused.isError).toBe(true);
    const failed = await call('fixture', 'fail');
    for (const result of [refused, failed]) {
      const anthropic: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
        'toolu_4',
        result,
      );
      expect(anthropic.is_error).toBe(true);
      expect(
        toOpenAIChatToolResult('call_7', result).message.content.startsWith(
          `${TOOL_ERROR_LINE}\n\n`,
        ),
      ).toBe(true);
      expect(toOpenAIResponsesToolOutput('call_7', result).output).toMatch(
        new RegExp(`^${TOOL_ERROR_LINE}`),
      );
    }
    expect(toOpenAIChatToolResult('call_8', failed).message.content).toBe(
      `${TOOL_ERROR_LINE}\n\nit broke`,
    );
  });

  it('a thrown McpError (the call was cancelled) becomes an error result naming the server and tool', async () => {
    const controller = new AbortController();
    const pending = executeTool(tool('fixture', 'slow'), {}, { signal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    const [first] = result.content;
    expect(first?.type === 'text' && first.text).toMatch(/host__fixture/);
    const anthropic: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
      'toolu_5',
      result,
    );
    expect(anthropic.is_error).toBe(true);
  });
});

describe('the AI SDK', () => {
  it('generateText calls the tools and gives the model their results, image included', async () => {
    const tools = toAiSdkTools([tool('everything', 'get-tiny-image'), tool('everything', 'echo')]);
    const names = Object.keys(tools);
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: names[0] as string, input: '{}' },
            {
              type: 'tool-call',
              toolCallId: 'c2',
              toolName: names[1] as string,
              input: '{"message":"hi"}',
            },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const answer = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(3) });
    expect(answer.text).toBe('done');

    const [first, second] = model.doGenerateCalls;
    const sent = first?.tools?.find((each) => each.name === names[1]);
    expect(sent).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    });
    expect(JSON.stringify(first?.tools)).not.toContain('"$schema"');
    const toolMessage = second?.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toMatchObject([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        output: {
          type: 'content',
          value: [
            { type: 'text' },
            { type: 'image-data', mediaType: 'image/png' },
            { type: 'text' },
          ],
        },
      },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        output: { type: 'content', value: [{ type: 'text', text: 'Echo: hi' }] },
      },
    ]);
  });
});

describe('media no reference tool returns', () => {
  const pdf = Buffer.from('%PDF-1.4\n').toString('base64');
  const wav = Buffer.from('RIFF0000WAVE').toString('base64');
  const result: ToolResult = {
    content: [
      {
        type: 'resource',
        resource: { uri: 'file:///tmp/report.pdf', mimeType: 'application/pdf', blob: pdf },
      },
      { type: 'audio', data: wav, mimeType: 'audio/wav' },
    ],
  };

  it('a PDF is a document for Anthropic, a file for OpenAI; WAV audio goes in the Chat follow-up and is a note elsewhere', () => {
    const anthropic: Anthropic.Messages.ToolResultBlockParam = toAnthropicToolResult(
      'toolu_9',
      result,
    );
    expect(anthropic.content).toMatchObject([
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
      { type: 'text', text: expect.stringContaining('Anthropic Messages takes no audio/wav') },
    ]);
    const chat = toOpenAIChatToolResult('call_9', result);
    const followUp: OpenAI.Chat.Completions.ChatCompletionUserMessageParam | undefined =
      chat.followUp;
    expect(followUp?.content).toMatchObject([
      { type: 'text' },
      {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'report.pdf' },
      },
      { type: 'input_audio', input_audio: { data: wav, format: 'wav' } },
    ]);
    const responses: OpenAI.Responses.ResponseInputItem.FunctionCallOutput =
      toOpenAIResponsesToolOutput('call_9', result);
    expect(responses.output).toMatchObject([
      { type: 'input_file', filename: 'report.pdf' },
      { type: 'input_text', text: expect.stringContaining('OpenAI Responses takes no audio/wav') },
    ]);
  });

  it('the AI SDK keeps a free-form object open, and its conversion never changes the tool’s schema', async () => {
    const inputSchema = {
      type: 'object',
      properties: { name: { type: 'string' }, arguments: { type: 'object' } },
      required: ['name'],
    };
    const freeForm: EpochTool = {
      name: 'call_tool',
      description: 'runs a tool',
      inputSchema,
      annotations: {},
      execute: async () => ({ content: [] }),
    };
    const converted = toAiSdkTools([freeForm]).call_tool;
    if (converted === undefined) throw new Error('not converted');
    for (let round = 0; round < 2; round++) {
      const schema = (await asSchema(converted.inputSchema).jsonSchema) as {
        additionalProperties?: unknown;
        properties: { arguments: unknown };
      };
      // toEqual: toMatchObject would take `false` for `{}`.
      expect(schema.additionalProperties).toEqual({});
      expect(schema.properties.arguments).toEqual({ type: 'object', additionalProperties: {} });
    }
    expect(inputSchema.properties.arguments).toEqual({ type: 'object' });
  });
});
