// A 2026-era server's questions (elicitation inside an input_required answer), against the
// testkit's server on the official server SDK (`--ask --modern-only`), over stdio and Streamable
// HTTP: each question names the call it came with (never inferred), the retry carries the
// person's answers (defaults filled) and the server's requestState, the 6th question of a call is
// answered `cancel`, and a server that asks with nobody to ask is told the capability is missing.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Elicit, ElicitationAnswer, ElicitationQuestion } from '@epoch-agent/protocol';
import { MODERN_SERVER, remoteConfig, startModernHttp, stdioConfig } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import type { McpServerConfig } from '../src/types.js';
import { type Script, startModernServer } from './support/modern-http-server.js';
import { rejection } from './support/waiting.js';

const FORM = {
  message: 'Deploy to production?',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: { type: 'boolean', title: 'Confirm' },
      region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
    },
    required: ['confirm'],
  },
};

const PAGE = {
  mode: 'url',
  message: 'Sign in to the registry',
  url: 'https://login.example.com/a?b=1',
};

let dir: string;
let record: string;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-elicit26-'));
  record = join(dir, 'record.jsonl');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

type Transport = 'stdio' | 'http';

async function configFor(transport: Transport): Promise<McpServerConfig> {
  const args = ['--ask', '--modern-only'];
  if (transport === 'stdio') {
    return stdioConfig('modern', process.execPath, [MODERN_SERVER, ...args], {
      env: { RECORD_FILE: record },
    });
  }
  const server = await startModernHttp(args, { RECORD_FILE: record });
  cleanups.push(() => server.stop());
  return remoteConfig('modern', 'http', server.url);
}

async function asking(
  transport: Transport,
  answer?: (question: ElicitationQuestion) => ElicitationAnswer,
): Promise<{ client: McpClient; asked: ElicitationQuestion[] }> {
  const asked: ElicitationQuestion[] = [];
  const elicit: Elicit | undefined =
    answer === undefined
      ? undefined
      : async (question) => {
          asked.push(question);
          return answer(question);
        };
  const client = new McpClient({
    config: await configFor(transport),
    ...(elicit === undefined ? {} : { elicit }),
  });
  cleanups.push(() => client.close());
  await client.connect();
  return { client, asked };
}

async function said(client: McpClient, args: Record<string, unknown>) {
  const result = await client.callTool('ask', args);
  return JSON.parse((result.content[0] as { text: string }).text);
}

/** What the server received as the answers, values and all. */
async function received(): Promise<unknown[]> {
  const text = await readFile(record, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
    .flatMap((entry) => (entry.answers === undefined ? [] : [entry.answers]));
}

describe.each(['stdio', 'http'] as const)('a 2026-era server asks, over %s', (transport) => {
  it('a form accepted: the question names the call, the server gets the answer with its defaults', async () => {
    const { client, asked } = await asking(transport, () => ({
      action: 'accept',
      content: { confirm: true },
    }));
    expect(await said(client, { question: FORM })).toEqual([
      { action: 'accept', fields: ['confirm', 'region'] },
    ]);
    expect(asked).toEqual([
      expect.objectContaining({
        mode: 'form',
        server: 'modern',
        source: 'user',
        message: 'Deploy to production?',
        during: { kind: 'tool', name: 'ask', inferred: false },
      }),
    ]);
    expect(await received()).toEqual([
      [{ action: 'accept', content: { confirm: true, region: 'eu' } }],
    ]);
  });

  it('a secret typed reaches the server, and no log line or error', async () => {
    const secret = 'ghp_9Zk2Lq7Rt4Wx8Np3Vb6Yc1';
    const lines: string[] = [];
    const log = (message: string, fields?: object): void => {
      lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
    };
    const client = new McpClient({
      config: await configFor(transport),
      logger: { debug: log, info: log, warn: log, error: log },
      elicit: async () => ({ action: 'accept', content: { token: secret } }),
    });
    cleanups.push(() => client.close());
    await client.connect();
    const question = {
      message: 'Your registry token',
      requestedSchema: { type: 'object', properties: { token: { type: 'string' } } },
    };
    expect(await said(client, { question })).toEqual([{ action: 'accept', fields: ['token'] }]);
    const failed = await client.callTool('ask', { question, fail: true });
    expect(failed.isError).toBe(true);
    expect(await received()).toEqual([
      [{ action: 'accept', content: { token: secret } }],
      [{ action: 'accept', content: { token: secret } }],
    ]);
    expect([...lines, JSON.stringify(failed)].filter((text) => text.includes(secret))).toEqual([]);
  });

  it('declined and cancelled answers reach the server as they were given', async () => {
    const actions: ElicitationAnswer[] = [{ action: 'decline' }, { action: 'cancel' }];
    const { client } = await asking(transport, () => actions.shift() as ElicitationAnswer);
    expect(await said(client, { question: FORM })).toEqual([{ action: 'decline', fields: [] }]);
    expect(await said(client, { question: FORM })).toEqual([{ action: 'cancel', fields: [] }]);
  });

  it('a page to visit: its whole origin is shown, and a yes is an accept with nothing more', async () => {
    const { client, asked } = await asking(transport, () => ({ action: 'accept' }));
    expect(await said(client, { question: PAGE })).toEqual([{ action: 'accept', fields: [] }]);
    expect(asked).toEqual([
      expect.objectContaining({
        mode: 'url',
        url: 'https://login.example.com/a?b=1',
        origin: 'https://login.example.com',
      }),
    ]);
    expect(await received()).toEqual([[{ action: 'accept' }]]);
  });

  it('six questions in one answer: five are asked, the 6th is answered cancel', async () => {
    const { client, asked } = await asking(transport, () => ({
      action: 'accept',
      content: { confirm: false },
    }));
    const answers = await said(client, { question: FORM, times: 6 });
    expect(answers.map(({ action }: { action: string }) => action)).toEqual([
      'accept',
      'accept',
      'accept',
      'accept',
      'accept',
      'cancel',
    ]);
    expect(asked).toHaveLength(5);
  });

  it('with nobody to ask, no capability is declared: the server refuses, and the error says why', async () => {
    const { client } = await asking(transport);
    const failure = await rejection(client.callTool('ask', { question: FORM }));
    expect(isMcpError(failure, 'input_required')).toBe(true);
    expect(failure.message).toContain('elicitation (a question put to the user)');
    expect(failure.message).toContain('nobody can be asked');
  });
});

describe('a 2026-era server that asks again after its answer', () => {
  it('ends the call, saying what the person answered and never what they typed', async () => {
    const always: Script = () => ({
      resultType: 'input_required',
      inputRequests: {
        who: { method: 'elicitation/create', params: FORM },
        where: { method: 'elicitation/create', params: PAGE },
      },
      requestState: 'again',
    });
    const server = await startModernServer({ tools: [{ name: 'stubborn', script: always }] });
    cleanups.push(() => server.stop());
    const client = new McpClient({
      config: remoteConfig('modern', 'http', server.url),
      elicit: async (question) =>
        question.mode === 'form'
          ? { action: 'accept', content: { confirm: true, region: 'us' } }
          : { action: 'decline' },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const failure = await rejection(client.callTool('stubborn', {}));
    expect(failure.code).toBe('input_required');
    expect(failure.message).toContain(
      'after epoch had answered it once (elicitation: accepted by the person asked; elicitation: declined by the person asked)',
    );
    expect(failure.message).not.toContain('"us"');
    const [, retry] = server.requests('tools/call', 'stubborn');
    expect(retry?.params.inputResponses).toEqual({
      who: { action: 'accept', content: { confirm: true, region: 'us' } },
      where: { action: 'decline' },
    });
  });
});

describe('a 2026-era prompt that asks', () => {
  it('names the prompt, and its answer goes with the retry', async () => {
    const script: Script = (params) =>
      params.inputResponses === undefined
        ? {
            resultType: 'input_required',
            inputRequests: { who: { method: 'elicitation/create', params: FORM } },
          }
        : {
            messages: [
              {
                role: 'user',
                content: { type: 'text', text: JSON.stringify(params.inputResponses) },
              },
            ],
          };
    const server = await startModernServer({ tools: [], prompts: [{ name: 'review', script }] });
    cleanups.push(() => server.stop());
    const asked: ElicitationQuestion[] = [];
    const client = new McpClient({
      config: remoteConfig('modern', 'http', server.url),
      elicit: async (question) => {
        asked.push(question);
        return { action: 'decline' };
      },
    });
    cleanups.push(() => client.close());
    await client.connect();
    const prompt = await client.getPrompt('review', undefined);
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: JSON.stringify({ who: { action: 'decline' } }),
    });
    expect(asked[0]?.during).toEqual({ kind: 'prompt', name: 'review', inferred: false });
  });
});
