// The README's rules for a server's questions ("Servers that ask you"), against a real 2025-era
// server over stdio (the fixture server's `ask` catalog: its own elicitation/create requests, on the
// direct tools/call path): a secret typed reaches the server that asked and nothing else, the 6th
// question of a call is answered `cancel`, a server set to "decline" is answered unasked, a server
// that asks with nobody to ask gets `cancel` and its failure says so, a form epoch cannot show and
// an answer that does not fit are `cancel` with a warning that names fields only, a stop while a
// question is open cancels both, and a question while two calls run says so; through the registry,
// a question carries the ToolContext the host passed to the tool's execute.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogFields, Logger } from '@epoch-agent/infra';
import type { Elicit, ElicitationAnswer, ElicitationQuestion } from '@epoch-agent/protocol';
import { fixtureServerArgs, stdioConfig, waitUntil } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { ServerOutput } from '../src/connection/server-output.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpElicitationSetting, McpServerSource } from '../src/types.js';
import { rejection } from './support/waiting.js';

const SECRET = 'sk-live-7Qf9xLmW2pZ8vR4t';

const API_KEY_FORM = {
  message: 'Your API key for the deploy, please',
  requestedSchema: {
    type: 'object',
    properties: {
      api_key: { type: 'string', title: 'API key', format: 'password' },
      note: { type: 'string', title: 'Note', minLength: 40 },
    },
    required: ['api_key'],
  },
};

const CONFIRM = {
  message: 'Delete the branch?',
  requestedSchema: {
    type: 'object',
    properties: { sure: { type: 'boolean', default: false } },
  },
};

let dir: string;
let record: string;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-elicit-'));
  record = join(dir, 'record.jsonl');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

interface Logged {
  readonly level: keyof Logger;
  readonly message: string;
  readonly fields?: LogFields;
}

function recordingLogger(): { logger: Logger; lines: Logged[] } {
  const lines: Logged[] = [];
  const at =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, ...(fields === undefined ? {} : { fields }) });
    };
  return {
    lines,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
  };
}

interface Started {
  readonly client: McpClient;
  readonly asked: ElicitationQuestion[];
  readonly lines: Logged[];
  readonly output: ServerOutput;
}

async function asker(
  answer:
    | ((question: ElicitationQuestion, signal: AbortSignal) => Promise<ElicitationAnswer>)
    | undefined,
  options: {
    readonly elicitation?: McpElicitationSetting;
    readonly source?: McpServerSource;
    readonly parallel?: boolean;
  } = {},
): Promise<Started> {
  const asked: ElicitationQuestion[] = [];
  const { logger, lines } = recordingLogger();
  const output = new ServerOutput();
  const elicit: Elicit | undefined =
    answer === undefined
      ? undefined
      : (question, signal) => {
          asked.push(question);
          return answer(question, signal);
        };
  const client = new McpClient({
    config: stdioConfig('asker', process.execPath, fixtureServerArgs('ask'), {
      env: { RECORD_FILE: record },
      supportsParallel: options.parallel === true,
      ...(options.elicitation === undefined ? {} : { elicitation: options.elicitation }),
    }),
    logger,
    output,
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(elicit === undefined ? {} : { elicit }),
  });
  cleanups.push(() => client.close());
  await client.connect();
  return { client, asked, lines, output };
}

async function answers(client: McpClient, args: Record<string, unknown>, signal?: AbortSignal) {
  const result = await client.callTool('ask', args, signal);
  return JSON.parse((result.content[0] as { text: string }).text);
}

async function recorded(): Promise<Record<string, unknown>[]> {
  const text = await readFile(record, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('a secret field', () => {
  it('is sent to the server that asked, and never logged, kept in its output or put in an error', async () => {
    const { client, asked, lines, output } = await asker(async () => {
      // The first question is answered well; the second with a note too short: not sent.
      const note = asked.length === 1 ? 'a note long enough to pass the forty characters' : 'short';
      return { action: 'accept', content: { api_key: SECRET, note } };
    });
    expect(await answers(client, { question: API_KEY_FORM })).toEqual([
      { action: 'accept', fields: ['api_key', 'note'] },
    ]);
    const [question] = asked;
    expect(question?.mode === 'form' && question.fields[0]).toMatchObject({
      name: 'api_key',
      secret: true,
    });
    // An answer that does not fit the form goes nowhere: cancel, and a warning naming the field.
    const failure = await rejection(client.callTool('ask', { question: API_KEY_FORM, fail: true }));
    expect(lines.some(({ level, message }) => level === 'warn' && message.includes('"note"'))).toBe(
      true,
    );
    // The server got the secret once: the first answer, and nothing of the second.
    const answered = (await recorded()).filter((entry) => entry.result !== undefined);
    expect(answered.map(({ result }) => result)).toEqual([
      {
        action: 'accept',
        content: { api_key: SECRET, note: 'a note long enough to pass the forty characters' },
      },
      { action: 'cancel' },
    ]);
    const everything = [
      ...lines.map((line) => JSON.stringify(line)),
      JSON.stringify(output.read()),
      String(failure),
      JSON.stringify(client.state),
    ];
    expect(everything.filter((text) => text.includes(SECRET))).toEqual([]);
    expect(everything.filter((text) => text.includes('short'))).toEqual([]);
  });
});

describe('a secret typed into a form', () => {
  it('is blanked in what the server that asked echoes back: its stderr, its error', async () => {
    const note = 'a note long enough to pass the forty characters';
    const { client, output } = await asker(async () => ({
      action: 'accept',
      content: { api_key: SECRET, note },
    }));
    const failure = await rejection(
      client.callTool('ask', { question: API_KEY_FORM, echo: true, fail: true }),
    );
    // The server did echo the answer: the field that is no secret is there as typed.
    await waitUntil(() => JSON.stringify(output.read()).includes(note), 'the echo on its stderr');
    expect(String(failure)).toContain(note);
    expect(JSON.stringify(output.read())).not.toContain(SECRET);
    expect(String(failure)).not.toContain(SECRET);
  });
});

describe('what epoch answers by itself', () => {
  it('the 6th question of one call is answered cancel, without asking; the call goes on', async () => {
    const { client, asked, lines } = await asker(async () => ({
      action: 'accept',
      content: { sure: true },
    }));
    const six = await answers(client, { question: CONFIRM, times: 6 });
    expect(six.map(({ action }: { action: string }) => action)).toEqual([
      'accept',
      'accept',
      'accept',
      'accept',
      'accept',
      'cancel',
    ]);
    expect(asked).toHaveLength(5);
    expect(
      lines.filter(({ level, message }) => level === 'warn' && message.includes('at most 5')),
    ).toHaveLength(1);
    // A new call counts afresh.
    expect(await answers(client, { question: CONFIRM })).toEqual([
      { action: 'accept', fields: ['sure'] },
    ]);
  });

  it('a server whose setting is "decline" is answered decline, and nobody is asked', async () => {
    const { client, asked } = await asker(
      async () => ({ action: 'accept', content: { sure: true } }),
      { elicitation: 'decline' },
    );
    expect(await answers(client, { question: CONFIRM })).toEqual([
      { action: 'decline', fields: [] },
    ]);
    expect(asked).toEqual([]);
  });

  it("a project's server declines by default; a project server set to ask is asked", async () => {
    const project = await asker(async () => ({ action: 'accept', content: { sure: true } }), {
      source: 'project',
    });
    expect(await answers(project.client, { question: CONFIRM })).toEqual([
      { action: 'decline', fields: [] },
    ]);
    expect(project.asked).toEqual([]);
  });

  it('with nobody to ask, a server that asks anyway gets cancel, and the call that then fails says why', async () => {
    const { client, lines } = await asker(undefined);
    expect(await answers(client, { question: CONFIRM })).toEqual([
      { action: 'cancel', fields: [] },
    ]);
    const failure = await rejection(client.callTool('ask', { question: CONFIRM, fail: true }));
    expect(isMcpError(failure, 'server_error')).toBe(true);
    expect((failure as Error).message).toContain(
      'The server had asked a question during it, and nobody could answer',
    );
    expect(lines.some(({ message }) => message.includes('nobody can be asked here'))).toBe(true);
    // The server was never told it may ask.
    const [initialize] = (await recorded()).filter((entry) => entry.method === 'initialize');
    expect(initialize?.params).toMatchObject({ capabilities: {} });
    expect(initialize?.params).not.toHaveProperty('capabilities.elicitation');
  });

  it('with someone to ask, the server is told it may ask, in a form and with a page to visit', async () => {
    await asker(async () => ({ action: 'cancel' }));
    const [initialize] = (await recorded()).filter((entry) => entry.method === 'initialize');
    expect(initialize?.params).toMatchObject({
      capabilities: { elicitation: { form: {}, url: {} } },
    });
  });

  it("the server's words reach the person without control, bidi or invisible characters", async () => {
    const { client, asked } = await asker(async () => ({ action: 'decline' }));
    const question = {
      message: 'Delete \u202egnirts\u202c the \u001b[31mbranch\u001b[0m?\u200b',
      requestedSchema: {
        type: 'object',
        properties: {
          sure: {
            type: 'string',
            title: 'Sure\u2066?\nreally',
            enum: ['y'],
            enumNames: ['Y\u0007es'],
          },
        },
      },
    };
    await answers(client, { question });
    expect(asked[0]?.message).toBe('Delete gnirts the branch?');
    const field = asked[0]?.mode === 'form' ? asked[0].fields[0] : undefined;
    expect(field).toMatchObject({
      name: 'sure',
      label: 'Sure? really',
      options: [{ value: 'y', label: 'Yes' }],
    });
  });

  it('a form epoch cannot show (a nested object) is answered cancel, and the warning says which field', async () => {
    const { client, asked, lines } = await asker(async () => ({ action: 'accept' }));
    const nested = {
      message: 'Where to?',
      requestedSchema: {
        type: 'object',
        properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    };
    expect(await answers(client, { question: nested })).toEqual([{ action: 'cancel', fields: [] }]);
    expect(asked).toEqual([]);
    const warned = lines.filter(({ level }) => level === 'warn').map(({ message }) => message);
    expect(warned).toEqual([expect.stringContaining('field "address"')]);
    expect(warned[0]).toContain('MCP server "asker"');
  });

  it('a URL that is not https (nor http to this machine) is answered cancel, and never shown', async () => {
    const { client, asked, lines } = await asker(async () => ({ action: 'accept' }));
    const question = {
      mode: 'url',
      message: 'Sign in',
      url: 'http://login.example.com/start',
      elicitationId: 'e1',
    };
    expect(await answers(client, { question })).toEqual([{ action: 'cancel', fields: [] }]);
    expect(asked).toEqual([]);
    expect(lines.some(({ message }) => message.includes('only https'))).toBe(true);
  });

  it("a page's end, told by the server, is taken quietly", async () => {
    const { client, lines } = await asker(async () => ({ action: 'accept' }));
    const question = {
      mode: 'url',
      message: 'Sign in',
      url: 'https://login.example.com/start',
      elicitationId: 'e7',
    };
    expect(await answers(client, { question, complete: true })).toEqual([
      { action: 'accept', fields: [] },
    ]);
    await waitUntil(
      () => lines.some(({ level, message }) => level === 'debug' && message.includes('done with')),
      'the end of the page to be logged',
    );
    expect(lines.filter(({ level }) => level === 'warn' || level === 'error')).toEqual([]);
  });

  it('an asker that throws is a cancel, with a warning', async () => {
    const { client, lines } = await asker(async () => {
      throw new Error('the terminal went away');
    });
    expect(await answers(client, { question: CONFIRM })).toEqual([
      { action: 'cancel', fields: [] },
    ]);
    expect(lines.some(({ message }) => message.includes('the terminal went away'))).toBe(true);
  });
});

describe('which request a question belongs to', () => {
  it('a stop while the question is open cancels the question and the call, and the server is told', async () => {
    let questionSignal: AbortSignal | undefined;
    let open: () => void = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { client } = await asker(
      (_question, signal) =>
        new Promise(() => {
          questionSignal = signal;
          open();
        }),
    );
    const stop = new AbortController();
    const call = client.callTool('ask', { question: CONFIRM }, stop.signal);
    await opened;
    stop.abort();
    const failure = await rejection(call);
    expect(isMcpError(failure, 'aborted')).toBe(true);
    expect(questionSignal?.aborted).toBe(true);
    await waitUntil(
      async () => (await recorded()).some((entry) => entry.method === 'notifications/cancelled'),
      'the server is told the call was cancelled',
    );
    // The server's question was answered too: cancel.
    await waitUntil(
      async () =>
        (await recorded()).some(
          (entry) => (entry.result as { action?: string } | undefined)?.action === 'cancel',
        ),
      'the question is answered cancel',
    );
  });

  it('a call that ends while its question is open cancels the question', async () => {
    let questionSignal: AbortSignal | undefined;
    const { client } = await asker(
      (_question, signal) =>
        new Promise(() => {
          questionSignal = signal;
        }),
    );
    const result = await client.callTool('ask', { question: CONFIRM, hasty: true });
    expect(result.content).toEqual([{ type: 'text', text: 'asked' }]);
    await waitUntil(() => questionSignal?.aborted, 'the question to be cancelled');
    await waitUntil(
      async () =>
        (await recorded()).some(
          (entry) => (entry.result as { action?: string } | undefined)?.action === 'cancel',
        ),
      'the server to be answered cancel',
    );
  });

  it('a question while two calls run names neither, and says two were running', async () => {
    const { client, asked } = await asker(async () => ({ action: 'decline' }), { parallel: true });
    const stop = new AbortController();
    const slow = client.callTool('slow', {}, stop.signal);
    const slowFailed = rejection(slow);
    await waitUntil(
      async () =>
        (await recorded()).some(
          (entry) => (entry.params as { name?: string } | undefined)?.name === 'slow',
        ),
      'the slow call reached the server',
    );
    expect(await answers(client, { question: CONFIRM })).toEqual([
      { action: 'decline', fields: [] },
    ]);
    expect(asked).toEqual([expect.objectContaining({ during: undefined, running: 2 })]);
    stop.abort();
    await slowFailed;
    // Alone, a call is named, as the one request in flight.
    await answers(client, { question: CONFIRM });
    expect(asked[1]?.during).toEqual({ kind: 'tool', name: 'ask', inferred: true });
    expect(asked[1]?.running).toBeUndefined();
  });
});

describe('through the registry, as a host calls a tool', () => {
  it("a question carries the ToolContext the host passed to execute, and a plugin's server declines unasked", async () => {
    const asked: ElicitationQuestion[] = [];
    const registry = new McpRegistry({
      schemaCache: null,
      elicit: async (question) => {
        asked.push(question);
        return { action: 'accept', content: { sure: true } };
      },
    });
    cleanups.push(() => registry.disconnectAll());
    const config = (name: string) =>
      stdioConfig(name, process.execPath, fixtureServerArgs('ask'), {
        env: { RECORD_FILE: record },
      });
    await registry.connectAll([config('mine')], 'user');
    await registry.connectAll([config('theirs')], 'plugin');
    const tool = (server: string) => {
      const found = registry
        .tools()
        .find(
          (each) =>
            each.server === server && each.target.kind === 'tool' && each.target.name === 'ask',
        );
      if (found === undefined) throw new Error(`no tool ask of ${server}`);
      return found;
    };
    const context = { signal: new AbortController().signal };
    const mine = await tool('mine').execute({ question: CONFIRM }, context);
    expect(JSON.stringify(mine.content)).toContain('accept');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.during?.context).toBe(context);
    expect(asked[0]).toMatchObject({ server: 'mine', source: 'user' });
    const theirs = await tool('theirs').execute({ question: CONFIRM }, context);
    expect(JSON.stringify(theirs.content)).toContain('decline');
    expect(asked).toHaveLength(1);
  });
});
