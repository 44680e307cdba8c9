// The time rules of a server's question (README "Servers that ask you"): a question waits 10
// minutes at most, then `cancel` (on a fake clock); a request's `timeout` stands still while a
// person is asked (RequestLimits, on a fake clock, then on real servers on each path: the 2025-era
// stdio hot path, the SDK's path over Streamable HTTP in both eras), and `max_total_timeout` still
// bounds the whole request. On the real servers the person takes several times the request's
// timeout to answer; nothing here races it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogFields } from '@epoch-agent/infra';
import type { Elicit } from '@epoch-agent/protocol';
import {
  endpointConfig,
  fixtureServerArgs,
  remoteConfig,
  startEverything,
  startModernHttp,
  stdioConfig,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { RequestLimits } from '../src/connection/request-limits.js';
import { ask, QUESTION_WAIT_MS, type QuestionTarget } from '../src/elicitation/ask.js';
import type { McpServerConfig } from '../src/types.js';
import { FakeClock } from './support/fake-clock.js';
import { rejection } from './support/waiting.js';

const CONFIRM = {
  message: 'Go on?',
  requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } },
};

function target(pauses: string[]): QuestionTarget {
  return {
    during: { kind: 'tool', name: 'deploy' },
    signal: new AbortController().signal,
    asked: 0,
    replies: [],
    pause: () => {
      pauses.push('paused');
      return () => pauses.push('resumed');
    },
    alive: () => {},
  };
}

describe('one question', () => {
  it('waits 10 minutes for its answer, then is cancel: the asker is told to stop, the request resumes', async () => {
    const clock = new FakeClock();
    const warned: string[] = [];
    const pauses: string[] = [];
    let stopped: AbortSignal | undefined;
    const asking = ask(
      {
        server: 'deployer',
        source: 'user',
        setting: () => 'ask',
        learn: () => {},
        elicit: (_question, signal) => {
          stopped = signal;
          return new Promise(() => {});
        },
        logger: {
          debug() {},
          info() {},
          warn: (message: string, _fields?: LogFields) => warned.push(message),
          error() {},
        },
        clock,
      },
      { params: CONFIRM, targets: [target(pauses)], inferred: false, counters: [] },
    );
    await clock.advance(QUESTION_WAIT_MS - 1);
    expect(stopped?.aborted).toBe(false);
    expect(pauses).toEqual(['paused']);
    await clock.advance(1);
    expect(await asking).toEqual({ reply: { action: 'cancel' }, reason: 'time' });
    expect(stopped?.aborted).toBe(true);
    expect(pauses).toEqual(['paused', 'resumed']);
    expect(warned).toEqual([
      'MCP server "deployer" asked a question during tool "deploy"; it was answered "cancel": nobody answered within 10 minutes.',
    ]);
    expect(clock.pending()).toEqual([]);
  });
});

describe("a request's sign of life", () => {
  it('runs from the send, starts again at each sign of life, and stands still while a person is asked', async () => {
    const clock = new FakeClock();
    const life = new RequestLimits({ caller: undefined, timeoutMs: 1_000, clock });
    // Not sent yet: a wait for the connection is connect_timeout's, not this.
    expect(clock.pending()).toEqual([]);
    life.start();
    await clock.advance(900);
    life.alive();
    await clock.advance(900);
    expect(life.signal.aborted).toBe(false);
    const resume = life.pause();
    const again = life.pause();
    expect(clock.pending()).toEqual([]);
    await clock.advance(60_000);
    resume();
    expect(clock.pending()).toEqual([]);
    again();
    // A question answered was a sign of life: a whole timeout from here.
    await clock.advance(999);
    expect(life.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(life.signal.aborted).toBe(true);
    expect(life.passed).toBe('timeout');
  });

  it("the caller's stop goes through, and is not the timeout passing; end() stops the timers and ends a question", async () => {
    const clock = new FakeClock();
    const caller = new AbortController();
    const life = new RequestLimits({
      caller: caller.signal,
      totalMs: 5_000,
      timeoutMs: 1_000,
      clock,
    });
    life.start();
    const question = life.over;
    caller.abort();
    expect(life.signal.aborted).toBe(true);
    expect(question.aborted).toBe(true);
    expect(life.passed).toBeUndefined();
    life.end();
    expect(clock.pending()).toEqual([]);
    const settled = new RequestLimits({ caller: undefined, timeoutMs: 1_000, clock });
    settled.start();
    const open = settled.over;
    settled.end();
    expect(open.aborted).toBe(true);
    expect(settled.signal.aborted).toBe(false);
    expect(clock.pending()).toEqual([]);
  });
});

// A person who takes twice the request's timeout to answer: a timeout that ran would end it first.
const TIMEOUT_MS = 1_500;
const PERSON_MS = 2 * TIMEOUT_MS;

const slowPerson: Elicit = (question) =>
  new Promise((resolve) =>
    setTimeout(
      () =>
        resolve(
          question.mode === 'form' && question.fields.some(({ name }) => name === 'name')
            ? { action: 'accept', content: { name: 'Ada' } }
            : { action: 'accept', content: { sure: true } },
        ),
      PERSON_MS,
    ),
  );

const cleanups: Array<() => Promise<void>> = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-question-time-'));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function connected(config: McpServerConfig, elicit: Elicit): Promise<McpClient> {
  const client = new McpClient({ config, elicit });
  cleanups.push(() => client.close());
  await client.connect();
  return client;
}

describe("the request's timeout while a person is asked", () => {
  it('does not count on the 2025-era stdio hot path', async () => {
    const client = await connected(
      stdioConfig('asker', process.execPath, fixtureServerArgs('ask'), { timeoutMs: TIMEOUT_MS }),
      slowPerson,
    );
    const result = await client.callTool('ask', { question: CONFIRM });
    expect(result.content).toEqual([
      { type: 'text', text: '[{"action":"accept","fields":["sure"]}]' },
    ]);
  });

  it("does not count on the SDK's path, a 2025-era server over Streamable HTTP", async () => {
    const server = await startEverything('http');
    cleanups.push(() => server.stop());
    const client = await connected(
      endpointConfig('everything', server.endpoint, { timeoutMs: TIMEOUT_MS }),
      slowPerson,
    );
    const result = await client.callTool('trigger-elicitation-request', {});
    expect(JSON.stringify(result.content)).toContain('User provided the requested information');
  });

  it('does not count for a 2026-era server over Streamable HTTP', async () => {
    const server = await startModernHttp(['--ask', '--modern-only']);
    cleanups.push(() => server.stop());
    const client = await connected(
      remoteConfig('modern', 'http', server.url, { timeoutMs: TIMEOUT_MS }),
      slowPerson,
    );
    const result = await client.callTool('ask', { question: CONFIRM });
    expect(result.content).toEqual([
      { type: 'text', text: '[{"action":"accept","fields":["sure"]}]' },
    ]);
  });

  it('max_total_timeout still ends the whole call, and the open question with it', async () => {
    let question: AbortSignal | undefined;
    const client = await connected(
      stdioConfig('asker', process.execPath, fixtureServerArgs('ask'), {
        timeoutMs: 60_000,
        maxTotalTimeoutMs: TIMEOUT_MS,
      }),
      (_question, signal) => {
        question = signal;
        return new Promise(() => {});
      },
    );
    const failure = await rejection(client.callTool('ask', { question: CONFIRM }));
    expect(failure.code).toBe('request_total_timeout');
    expect(question?.aborted).toBe(true);
    // The server reported no progress: the time went to a question, and the words say so.
    expect(failure.message).not.toContain('progress');
    expect(failure.message).toContain(
      'did not finish within its total limit of 1500 ms ("max_total_timeout"), the time a person took to answer its questions included,',
    );
  });
});
