// A 2025-era server's questions (its own elicitation/create requests), against the reference
// server (`trigger-elicitation-request`, a form; `trigger-url-elicitation`, a page to visit) over
// stdio and Streamable HTTP: the capability is declared only when someone can be asked, each
// question names the server and the one call in flight, and the server gets what the person said,
// the form's defaults filled in.
import type { Elicit, ElicitationQuestion, ToolContext } from '@epoch-agent/protocol';
import {
  type EverythingTransport,
  endpointConfig,
  type RunningEverything,
  startEverything,
} from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function everything(transport: EverythingTransport, elicit?: Elicit): Promise<McpClient> {
  const server: RunningEverything = await startEverything(transport);
  cleanups.push(() => server.stop());
  const client = new McpClient({
    config: endpointConfig('everything', server.endpoint),
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
