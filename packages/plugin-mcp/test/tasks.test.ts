// Tools that run as tasks, against real servers of both revisions: the reference server's
// `simulate-research-query` (2025-11-25, taskSupport "required", on the SDK's v1 task runtime) and
// the testkit's task-server.mjs (2026-07-28, the io.modelcontextprotocol/tasks extension, on the
// official server SDK) over stdio and Streamable HTTP: the call is made a task, polled, its status
// messages come as progress, its result is fetched; a task that fails is the call's error; a
// question it asks goes to the person; a call stopped by its caller, by its `timeout` or by
// max_total_timeout sends tasks/cancel, which the server saw, and its error says so, naming the task.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolProgress } from '@epoch-agent/protocol';
import {
  EVERYTHING_ENTRY,
  remoteConfig,
  startModernHttp,
  stdioConfig,
  TASK_SERVER,
} from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError } from '../src/errors/mcp-error.js';
import { readTaskRecords } from '../src/tasks/task-record-list.js';
import type { McpServerCommon, McpServerConfig } from '../src/types.js';
import { rejection } from './support/waiting.js';

let dir: string;
let record: string;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-tasks-'));
  record = join(dir, 'record.jsonl');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function connected(
  config: McpServerConfig,
  elicit?: ConstructorParameters<typeof McpClient>[0]['elicit'],
): Promise<McpClient> {
  const client = new McpClient({ config, ...(elicit === undefined ? {} : { elicit }) });
  cleanups.push(() => client.close());
  await client.connect();
  return client;
}

function text(result: { content: readonly unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

/** What the task server recorded: its task events, in order. */
async function recorded(): Promise<Record<string, unknown>[]> {
  const lines = await readFile(record, 'utf8').catch(() => '');
  return lines
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** What a call that ran as a task says of its cancel: tasks/cancel, for that task. */
function expectTaskCancelSaid(failure: Error, taskId: unknown): void {
  expect(failure.message).toContain(`the server was sent tasks/cancel for its task "${taskId}".`);
  expect(failure.message).not.toContain('notifications/cancelled');
}

/**
 * A total limit's words name the setting and what to do, and no file: a host's server is in none.
 */
function expectTotalLimitSaid(failure: Error): void {
  expect(failure.message).toContain('("max_total_timeout")');
  expect(failure.message).toContain('give the server a longer total limit.');
  expect(failure.message).not.toContain('mcp.json');
}

describe('a 2025-11-25 task tool: the reference server', () => {
  const everything = (overrides: Partial<McpServerCommon> = {}) =>
    stdioConfig('everything', process.execPath, [EVERYTHING_ENTRY, 'stdio'], overrides);

  it('simulate-research-query runs as a task: its stages come as progress, its report as the result', async () => {
    const client = await connected(everything());
    const reports: ToolProgress[] = [];
    const result = await client.callTool(
      'simulate-research-query',
      { topic: 'tides' },
      undefined,
      (report) => reports.push(report),
    );
    expect(text(result)).toContain('# Research Report: tides');
    const said = reports.map(({ message }) => message);
    expect(said).toContain('Gathering sources...');
    expect(said).toContain('Generating report...');
    expect(reports.map(({ progress }) => progress)).toEqual(reports.map((_, n) => n + 1));
  });

  it('a question the task asks goes to the person, and the answer shapes the result', async () => {
    const asked: string[] = [];
    const client = await connected(everything(), async (question) => {
      asked.push(`${question.during?.kind} ${question.during?.name}`);
      return { action: 'accept', content: { interpretation: 'historical' } };
    });
    const result = await client.callTool('simulate-research-query', {
      topic: 'tides',
      ambiguous: true,
    });
    expect(text(result)).toContain('# Research Report: tides (historical)');
    expect(asked).toEqual(['tool simulate-research-query']);
  });

  it('a call stopped by its caller ends with aborted, and the server says its task was cancelled', async () => {
    const client = await connected(everything());
    const stop = new AbortController();
    const failure = await rejection(
      client.callTool('simulate-research-query', { topic: 'tides' }, stop.signal, (report) => {
        if (report.message === 'Analyzing content...')
          stop.abort(new Error('the person stopped it'));
      }),
    );
    expect(isMcpError(failure, 'aborted')).toBe(true);
    // The task's id is in its record. Asked, the server has it cancelled, or (the reference server)
    // dropped: a task that was never cancelled is found, working or completed, for its ttl of 5 min.
    // The latest record: those of the calls before are there too.
    const task = (await readTaskRecords()).filter(({ server }) => server === 'everything').at(-1);
    if (task === undefined) throw new Error('the task was not recorded');
    const seen = await client.getTask(task.taskId).then(
      ({ status }) => status,
      (error: unknown) => (isMcpError(error, 'task_gone') ? 'dropped' : Promise.reject(error)),
    );
    expect(['cancelled', 'dropped']).toContain(seen);
    expect(failure.message).toContain('was stopped by the user;');
    expectTaskCancelSaid(failure, task.taskId);
  });

  it('past max_total_timeout: request_total_timeout, saying its task was sent tasks/cancel', async () => {
    // Its four stages take a second each: the limit passes while the task runs.
    const client = await connected(everything({ maxTotalTimeoutMs: 1_500 }));
    const failure = await rejection(client.callTool('simulate-research-query', { topic: 'tides' }));
    expect(isMcpError(failure, 'request_total_timeout')).toBe(true);
    // The latest record: those of the calls before are there too.
    const task = (await readTaskRecords()).filter(({ server }) => server === 'everything').at(-1);
    if (task === undefined) throw new Error('the task was not recorded');
    expect(task.status).toBe('cancelled');
    expectTaskCancelSaid(failure, task.taskId);
    expectTotalLimitSaid(failure);
  });
});

describe('a 2025-11-25 task whose server stops answering', () => {
  const OPTIONAL = fileURLToPath(new URL('./fixtures/optional-task-server.mjs', import.meta.url));

  it('past its timeout: request_timeout, saying its task was sent tasks/cancel, which the server saw', async () => {
    const client = await connected(
      stdioConfig('silent', process.execPath, [OPTIONAL, '--silent-get'], {
        env: { RECORD_FILE: record },
        taskCalls: 'offered',
        timeoutMs: 1_000,
      }),
    );
    const failure = await rejection(client.callTool('long', {}));
    expect(isMcpError(failure, 'request_timeout')).toBe(true);
    expect(await recorded()).toEqual([{ cancelled: 'only-task' }]);
    expectTaskCancelSaid(failure, 'only-task');
  });
});

type Transport = 'stdio' | 'http';

async function taskServer(
  transport: Transport,
  overrides: Partial<McpServerCommon> = {},
  args: readonly string[] = [],
): Promise<McpServerConfig> {
  if (transport === 'stdio') {
    return stdioConfig('tasks', process.execPath, [TASK_SERVER, ...args], {
      env: { RECORD_FILE: record },
      ...overrides,
    });
  }
  const server = await startModernHttp(args, { RECORD_FILE: record }, TASK_SERVER);
  cleanups.push(() => server.stop());
  return remoteConfig('tasks', 'http', server.url, overrides);
}

describe.each(['stdio', 'http'] as const)('a 2026-07-28 task tool, over %s', (transport) => {
  it('runs as a task: polled to its end, each step a look saw as progress, the result inlined', async () => {
    const client = await connected(await taskServer(transport));
    const reports: ToolProgress[] = [];
    const result = await client.callTool('work', { steps: 3, stepMs: 150 }, undefined, (report) =>
      reports.push(report),
    );
    expect(text(result)).toBe('done 3');
    const events = await recorded();
    expect(events.filter((event) => 'created' in event)).toHaveLength(1);
    const looks = events.filter((event) => 'get' in event);
    expect(looks.length).toBeGreaterThan(0);
    // Which steps a poll sees depends on when it runs (a busy machine skips some): each step the
    // server told a look (tasks/get) is shown once, in order. The last step's words come with the
    // task's end too, which is all a look tells of them when none ran while that step did.
    const told = looks.flatMap(({ said }) =>
      typeof said === 'string' && said.startsWith('step ') ? [said] : [],
    );
    // (A repeat says nothing new: the last step seen running, then again at the end.)
    const once = (said: (string | undefined)[]) => said.filter((one, i) => one !== said[i - 1]);
    const shown = reports.map(({ message }) => message).filter((said) => said?.startsWith('step '));
    expect(once(shown)).toEqual(once(told));
  });

  it('a task that fails is the call failing with the server error', async () => {
    const client = await connected(await taskServer(transport));
    const failure = await rejection(client.callTool('work', { steps: 2, stepMs: 50, fail: true }));
    expect(isMcpError(failure, 'server_error')).toBe(true);
    expect(failure.message).toContain('the task failed: the work broke at its last step');
  });

  it('a question the task asks is put to the person and answered with tasks/update', async () => {
    const asked: string[] = [];
    const client = await connected(await taskServer(transport), async (question) => {
      asked.push(`${question.message} (${question.during?.kind} ${question.during?.name})`);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const result = await client.callTool('work', { steps: 2, stepMs: 50, ask: true });
    expect(text(result)).toBe('hello Ada');
    expect(asked).toEqual(['What is your name? (tool work)']);
    const updates = (await recorded()).filter((event) => 'update' in event);
    expect(updates).toEqual([expect.objectContaining({ actions: ['accept'] })]);
  });

  it('stopped by its caller mid-way: tasks/cancel reaches the server before the call ends', async () => {
    const client = await connected(await taskServer(transport));
    const stop = new AbortController();
    // Longer than the test may run: only the stop can end it. Stopped at the first step seen,
    // whichever it is: a poll that comes late (a busy machine) skips some.
    const failure = await rejection(
      client.callTool('work', { steps: 1_000, stepMs: 100 }, stop.signal, (report) => {
        if (report.message?.startsWith('step ')) stop.abort(new Error('the person stopped it'));
      }),
    );
    expect(isMcpError(failure, 'aborted')).toBe(true);
    const events = await recorded();
    const created = events.find((event) => 'created' in event)?.created;
    expect(events).toContainEqual({ cancelled: created });
    expect(failure.message).toContain('was stopped by the user;');
    expectTaskCancelSaid(failure, created);
  });

  it('past max_total_timeout: request_total_timeout, and the server saw tasks/cancel', async () => {
    const client = await connected(await taskServer(transport, { maxTotalTimeoutMs: 600 }));
    const failure = await rejection(client.callTool('work', { steps: 100, stepMs: 100 }));
    expect(isMcpError(failure, 'request_total_timeout')).toBe(true);
    const events = await recorded();
    const created = events.find((event) => 'created' in event)?.created;
    expect(events).toContainEqual({ cancelled: created });
    expectTaskCancelSaid(failure, created);
    expectTotalLimitSaid(failure);
  });

  it('past its timeout between looks: request_timeout, and the server saw tasks/cancel', async () => {
    // The server asks to be looked at every 10 s (the most epoch waits), and pushes nothing: the
    // call hears nothing for longer than its timeout.
    const client = await connected(
      await taskServer(transport, { timeoutMs: 1_500 }, ['--poll-ms=10000']),
    );
    const failure = await rejection(client.callTool('work', { steps: 100, stepMs: 100 }));
    expect(isMcpError(failure, 'request_timeout')).toBe(true);
    const events = await recorded();
    const created = events.find((event) => 'created' in event)?.created;
    expect(events).toContainEqual({ cancelled: created });
    expectTaskCancelSaid(failure, created);
  });
});

describe('a 2025-11-25 tool that only offers to run as a task', () => {
  const OPTIONAL = fileURLToPath(new URL('./fixtures/optional-task-server.mjs', import.meta.url));
  const optional = (overrides: Partial<McpServerCommon> = {}) =>
    stdioConfig('optional', process.execPath, [OPTIONAL], overrides);

  it('is called directly by default (task_calls "required")', async () => {
    const client = await connected(optional());
    expect(text(await client.callTool('long', {}))).toBe('directly');
  });

  it('is called as a task when the server\'s task_calls is "offered"', async () => {
    const client = await connected(optional({ taskCalls: 'offered' }));
    expect(text(await client.callTool('long', {}))).toBe('as a task');
  });
});
