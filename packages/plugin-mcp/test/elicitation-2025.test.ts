// A 2025-era server's questions (its own elicitation/create requests), against the reference
// server (`trigger-elicitation-request`, a form; `trigger-url-elicitation`, a page to visit) over
// stdio and Streamable HTTP: the capability is declared only when someone can be asked, each
// question names the server and the one call in flight, and the server gets what the person said,
// the form's defaults filled in; a question while two calls run names neither.
import type {
  Elicit,
  ElicitationAnswer,
  ElicitationQuestion,
  ToolContext,
} from '@epoch-agent/protocol';
import {
  type EverythingTransport,
  endpointConfig,
  type RunningEverything,
  startEverything,
} from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function everything(transport: EverythingTransport, elicit?: Elicit): Promise<McpClient> {
  const server: RunningEverything = await startEverything(transport);
  cleanups.push(() => server.stop());
  const client = new McpClient({
    config: endpointConfig('everything', server.endpoint, { supportsParallel: true }),
    ...(elicit === undefined ? {} : { elicit }),
  });
  cleanups.push(() => client.close());
  await client.connect();
  return client;
}

function text(result: { content: readonly unknown[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

describe.each(['stdio', 'http'] as const)('a 2025-era server asks, over %s', (transport) => {
  it('a form accepted with only the required field typed: the server gets it and every default', async () => {
    const asked: ElicitationQuestion[] = [];
    const client = await everything(transport, async (question) => {
      asked.push(question);
      return { action: 'accept', content: { name: 'Ada Lovelace' } };
    });
    const context: ToolContext = { signal: new AbortController().signal };
    const result = await client.callTool(
      'trigger-elicitation-request',
      {},
      undefined,
      undefined,
      context,
    );
    expect(asked).toHaveLength(1);
    const [question] = asked;
    expect(question).toMatchObject({
      mode: 'form',
      server: 'everything',
      source: 'user',
      during: { kind: 'tool', name: 'trigger-elicitation-request', inferred: true },
      message: 'Please provide inputs for the following fields:',
    });
    // The very ToolContext the call was given, for a host that routes questions by session.
    expect(question?.during?.context).toBe(context);
    const raw = JSON.parse(text(result).split('Raw result: ')[1] ?? '{}');
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        firstLine: 'It was a dark and stormy night.',
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Guitar'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      },
    });
  });

  it('a page to visit: its origin shown whole; a yes is accept, a no is decline', async () => {
    const asked: ElicitationQuestion[] = [];
    const answers: ElicitationAnswer[] = [{ action: 'accept' }, { action: 'decline' }];
    const client = await everything(transport, async (question) => {
      asked.push(question);
      return answers.shift() as ElicitationAnswer;
    });
    const url = 'https://login.example.com:8443/authorize?state=abc';
    const visit = (): Promise<string> =>
      client
        .callTool('trigger-url-elicitation', { url, message: 'Sign in to continue' })
        .then(text);
    expect(await visit()).toContain('User completed the URL elicitation flow');
    expect(await visit()).toContain('User declined to open the URL');
    expect(asked[0]).toMatchObject({
      mode: 'url',
      url,
      origin: 'https://login.example.com:8443',
      message: 'Sign in to continue',
      during: { kind: 'tool', name: 'trigger-url-elicitation', inferred: true },
    });
  });

  it('a question while another call runs names neither, and says two were running', async () => {
    const asked: ElicitationQuestion[] = [];
    const client = await everything(transport, async (question) => {
      asked.push(question);
      return { action: 'decline' };
    });
    // Far longer than the test: it is stopped once the question was answered.
    const stop = new AbortController();
    const long = client
      .callTool('trigger-long-running-operation', { duration: 600, steps: 600 }, stop.signal)
      .catch((error: unknown) => error);
    const result = await client.callTool('trigger-elicitation-request', {});
    expect(text(result)).toContain('User declined');
    stop.abort();
    expect(isMcpError(await long, 'aborted')).toBe(true);
    expect(asked).toEqual([expect.objectContaining({ during: undefined, running: 2 })]);
  });

  it('a stop while the question is open cancels the question and the call', async () => {
    let questionSignal: AbortSignal | undefined;
    let open: () => void = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const client = await everything(
      transport,
      (_question, signal) =>
        new Promise(() => {
          questionSignal = signal;
          open();
        }),
    );
    const stop = new AbortController();
    const call = client.callTool('trigger-elicitation-request', {}, stop.signal);
    const failed = call.catch((error: unknown) => error);
    await opened;
    stop.abort();
    expect(isMcpError(await failed, 'aborted')).toBe(true);
    expect(questionSignal?.aborted).toBe(true);
    // The connection goes on.
    expect(client.state.kind).toBe('connected');
  });

  it('without anyone to ask, no elicitation capability is declared: the server offers no tool that asks', async () => {
    const client = await everything(transport);
    const state = client.state;
    if (state.kind !== 'connected') throw new Error(`not connected: ${state.kind}`);
    const names = state.tools.map(({ name }) => name);
    expect(names).toContain('echo');
    expect(names).not.toContain('trigger-elicitation-request');
    expect(names).not.toContain('trigger-url-elicitation');
  });
});
