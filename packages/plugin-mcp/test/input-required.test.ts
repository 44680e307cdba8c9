// A 2026-era server that answers with input_required, on a real Streamable HTTP server on
// 127.0.0.1: epoch answers what it can answer without asking anyone (an elicitation cancelled, no
// roots), sends the request once more — a new JSON-RPC id, the server's requestState byte for byte,
// none when it sent none — and ends it with `input_required` for sampling or a second question.
import { pathToFileURL } from 'node:url';
import { remoteConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import {
  type ModernTool,
  type RunningModernServer,
  type Script,
  startModernServer,
} from './support/modern-http-server.js';
import { rejection } from './support/waiting.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Opaque to the client: spaces at both ends, a quote, non-ASCII, a newline. */
const STATE = ' {"step":1,"who":"Zoë"}\n ';

const ELICIT = {
  method: 'elicitation/create',
  params: {
    message: 'Which branch?',
    requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } },
  },
};
const ROOTS = { method: 'roots/list', params: {} };
/** Where a 2026-era request carries what the client declares. */
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const SAMPLE = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 },
};

/** Asks with `asked` first; once answered, returns what it was sent. */
function asksOnce(asked: Record<string, unknown>): Script {
  return (params) =>
    params.inputResponses === undefined && params.requestState === undefined
      ? { resultType: 'input_required', ...asked }
      : { content: [{ type: 'text', text: 'done' }], structuredContent: { got: params } };
}

async function connected(
  tools: readonly ModernTool[],
  prompts: Parameters<typeof startModernServer>[0]['prompts'] = [],
): Promise<{ server: RunningModernServer; client: McpClient }> {
  const server = await startModernServer({ tools, prompts });
  cleanups.push(() => server.stop());
  const client = new McpClient({ config: remoteConfig('modern', 'http', server.url) });
  cleanups.push(() => client.close());
  await client.connect();
  return { server, client };
}

describe('input_required from a 2026-era server', () => {
  it('an elicitation is cancelled, as nobody was asked, and the call sent once more on a new id with the requestState byte for byte', async () => {
    const { server, client } = await connected([
      {
        name: 'deploy',
        script: asksOnce({ inputRequests: { branch: ELICIT }, requestState: STATE }),
      },
    ]);
    const result = await client.callTool('deploy', { env: 'prod' });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    const [first, retry] = server.requests('tools/call', 'deploy');
    expect(server.requests('tools/call')).toHaveLength(2);
    expect(retry?.id).not.toEqual(first?.id);
    expect(first?.params).not.toHaveProperty('inputResponses');
    expect(first?.params).not.toHaveProperty('requestState');
    expect(retry?.params).toMatchObject({
      name: 'deploy',
      arguments: { env: 'prod' },
      inputResponses: { branch: { action: 'cancel' } },
    });
    expect(retry?.params.requestState).toBe(STATE);
  });

  it('without roots none are declared, roots are answered with none, and a retry carries no requestState when the server sent none', async () => {
    const { server, client } = await connected([
      { name: 'scan', script: asksOnce({ inputRequests: { where: ROOTS } }) },
    ]);
    await client.callTool('scan', {});
    const [first, retry] = server.requests('tools/call', 'scan');
    expect(retry?.params.inputResponses).toEqual({ where: { roots: [] } });
    expect(first?.params._meta).toMatchObject({ [CAPABILITIES]: {} });
    expect(first?.params._meta).not.toHaveProperty([CAPABILITIES, 'roots']);
    expect(retry?.params).not.toHaveProperty('requestState');
  });

  it('roots the host gave are the answer, and every request declares the roots capability', async () => {
    const server = await startModernServer({
      tools: [{ name: 'scan', script: asksOnce({ inputRequests: { where: ROOTS } }) }],
    });
    cleanups.push(() => server.stop());
    const client = new McpClient({
      config: remoteConfig('modern', 'http', server.url),
      roots: [{ dir: 'file:///srv/work', name: 'work' }, '/srv/other'],
    });
    cleanups.push(() => client.close());
    await client.connect();
    await client.callTool('scan', {});
    const [first, retry] = server.requests('tools/call', 'scan');
    expect(retry?.params.inputResponses).toEqual({
      where: {
        roots: [
          { uri: 'file:///srv/work', name: 'work' },
          { uri: pathToFileURL('/srv/other').href },
        ],
      },
    });
    expect(first?.params._meta).toMatchObject({
      [CAPABILITIES]: { roots: { listChanged: true } },
    });
  });

  it('a requestState alone is echoed with no inputResponses', async () => {
    const { server, client } = await connected([
      { name: 'busy', script: asksOnce({ requestState: STATE }) },
    ]);
    await client.callTool('busy', {});
    const [, retry] = server.requests('tools/call', 'busy');
    expect(retry?.params.requestState).toBe(STATE);
    expect(retry?.params).not.toHaveProperty('inputResponses');
  });

  it('sampling ends the call at once with input_required naming the server, the tool and sampling; nothing more is sent', async () => {
    const { server, client } = await connected([
      {
        name: 'summarize',
        script: asksOnce({ inputRequests: { ask: ELICIT, draft: SAMPLE }, requestState: STATE }),
      },
    ]);
    const error = await rejection(client.callTool('summarize', {}));
    expect(error.code).toBe('input_required');
    expect(error.server).toBe('modern');
    expect(error.tool).toBe('summarize');
    expect(error.message).toContain('"modern"');
    expect(error.message).toContain('"summarize"');
    expect(error.message).toContain('sampling');
    expect(error.message).toContain('epoch does not support');
    expect(server.requests('tools/call')).toHaveLength(1);
  });

  it('a server that asks again ends the call with input_required naming what it asked for, after one retry', async () => {
    const always: Script = () => ({
      resultType: 'input_required',
      inputRequests: { branch: ELICIT },
      requestState: STATE,
    });
    const { server, client } = await connected([{ name: 'stubborn', script: always }]);
    const error = await rejection(client.callTool('stubborn', {}));
    expect(error.code).toBe('input_required');
    expect(error.tool).toBe('stubborn');
    expect(error.message).toContain('again for elicitation');
    expect(server.requests('tools/call')).toHaveLength(2);
    // The connection is fine: the next call goes through.
    expect(client.state.kind).toBe('connected');
  });

  it('a server that asks for roots again names the roots it was sent, not "none"', async () => {
    const always: Script = () => ({
      resultType: 'input_required',
      inputRequests: { where: ROOTS },
    });
    const server = await startModernServer({ tools: [{ name: 'scan', script: always }] });
    cleanups.push(() => server.stop());
    const client = new McpClient({
      config: remoteConfig('modern', 'http', server.url),
      roots: [{ dir: 'file:///srv/work', name: 'work' }, '/srv/other'],
    });
    cleanups.push(() => client.close());
    await client.connect();
    const error = await rejection(client.callTool('scan', {}));
    expect(error.code).toBe('input_required');
    expect(error.message).toContain('MCP server "modern": tool "scan" asked again for roots');
    expect(error.message).toContain(
      `answered it once (roots: file:///srv/work, ${pathToFileURL('/srv/other').href})`,
    );
    expect(error.message).not.toContain('none');
    const [, retry] = server.requests('tools/call', 'scan');
    expect(retry?.params.inputResponses).toMatchObject({ where: { roots: [{}, {}] } });
  });

  it('a server that asks for roots again, none having been given, is told that', async () => {
    const always: Script = () => ({
      resultType: 'input_required',
      inputRequests: { where: ROOTS },
    });
    const { client } = await connected([{ name: 'scan', script: always }]);
    const error = await rejection(client.callTool('scan', {}));
    expect(error.message).toContain('answered it once (roots: none, as none were given)');
  });

  it('a refusal for want of roots the host gave says they were declared, and claims nothing the server did not say', async () => {
    // A server that answers -32021 for roots though the request declared them.
    const refuse: Script = () => ({
      rpcError: {
        code: -32021,
        message: 'Missing required client capability',
        data: { requiredCapabilities: { roots: {} } },
      },
    });
    const server = await startModernServer({ tools: [{ name: 'scan', script: refuse }] });
    cleanups.push(() => server.stop());
    const client = new McpClient({
      config: remoteConfig('modern', 'http', server.url),
      roots: ['/srv/work'],
    });
    cleanups.push(() => client.close());
    await client.connect();
    const error = await rejection(client.callTool('scan', {}));
    expect(error.code).toBe('input_required');
    expect(error.message).toContain('MCP server "modern": tool "scan" needs roots');
    expect(error.message).toContain('epoch declared roots on this request');
    expect(error.message).toContain('error -32021');
    expect(error.message).not.toContain('does not support');
    expect(error.message).not.toContain('without running it');
  });

  it("a retry's fields go with that retry only: a call in parallel and the next one carry neither", async () => {
    const { server, client } = await connected([
      {
        name: 'deploy',
        script: asksOnce({ inputRequests: { branch: ELICIT }, requestState: STATE }),
      },
      { name: 'plain' },
    ]);
    await Promise.all([client.callTool('deploy', {}), client.callTool('plain', { n: 1 })]);
    await client.callTool('plain', { n: 2 });
    const plain = server.requests('tools/call', 'plain');
    expect(plain).toHaveLength(2);
    for (const { params } of plain) {
      expect(params).not.toHaveProperty('inputResponses');
      expect(params).not.toHaveProperty('requestState');
    }
  });

  it('prompts/get is answered the same way', async () => {
    const { server, client } = await connected(
      [],
      [
        {
          name: 'review',
          script: (params) =>
            params.inputResponses === undefined
              ? { resultType: 'input_required', inputRequests: { ok: ELICIT } }
              : { messages: [{ role: 'user', content: { type: 'text', text: 'review it' } }] },
        },
      ],
    );
    const prompt = await client.getPrompt('review', { file: 'a.ts' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'review it' } },
    ]);
    const [, retry] = server.requests('prompts/get');
    expect(retry?.params).toMatchObject({
      name: 'review',
      arguments: { file: 'a.ts' },
      inputResponses: { ok: { action: 'cancel' } },
    });
  });
});
