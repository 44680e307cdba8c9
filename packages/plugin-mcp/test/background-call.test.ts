// A call in the background (startInBackground), on the testkit's 2026-07-28 task server over stdio
// through a McpRegistry's tools, as a host's agent loop uses them: the loop goes on (another call
// of the same server answers) while the task runs (held by a question it asks, answered after),
// the result is taken later; the call's ToolContext.signal stops it, and the server saw
// tasks/cancel.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EpochTool } from '@epoch-agent/protocol';
import { stdioConfig, TASK_SERVER } from '@epoch-agent/testkit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { McpRegistry } from '../src/registry/registry.js';
import { startInBackground } from '../src/tasks/background-call.js';
import { rejection } from './support/waiting.js';

let dir: string;
let record: string;
let registry: McpRegistry;
/** Opened by a test when the person answers the question a task asks (asked with `ask`). */
let answered: Promise<void>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-background-'));
  record = join(dir, 'record.jsonl');
  answered = Promise.resolve();
  registry = new McpRegistry({
    schemaCache: null,
    elicit: async () => {
      await answered;
      return { action: 'accept', content: { name: 'Ada' } };
    },
  });
  const config = stdioConfig('tasks', process.execPath, [TASK_SERVER], {
    env: { RECORD_FILE: record },
    supportsParallel: true,
  });
  await registry.connectAll([config], 'user');
});

afterEach(async () => {
  await registry.disconnectAll();
  await rm(dir, { recursive: true, force: true });
});

function tool(name: string): EpochTool {
  const found = registry
    .tools()
    .find(({ target }) => target.kind === 'tool' && target.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

function text(result: { content: readonly unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

it('runs while the loop goes on: another call answers meanwhile, the result is taken later', async () => {
  // The task asks a question before its last step, answered once the other call has answered:
  // it cannot end before, however slow the machine.
  let answer = () => {};
  answered = new Promise((resolve) => {
    answer = resolve;
  });
  const turn = new AbortController();
  const call = startInBackground(
    tool('work'),
    { steps: 2, stepMs: 10, ask: true },
    { signal: turn.signal },
  );
  expect(call.state).toBe('running');
  const meanwhile = await tool('plain').execute({ steps: 1, stepMs: 10 }, { signal: turn.signal });
  expect(text(meanwhile)).toBe('done 1');
  expect(call.state).toBe('running');
  answer();
  expect(text(await call.result)).toBe('hello Ada');
  expect(call.state).toBe('done');
});

it("the call's ToolContext.signal stops it: aborted, and the server saw tasks/cancel", async () => {
  const turn = new AbortController();
  const reports: string[] = [];
  // Longer than the test may run: a result can only come from the stop.
  const call = startInBackground(
    tool('work'),
    { steps: 1_000, stepMs: 100 },
    {
      signal: turn.signal,
      onProgress: ({ message }) => {
        reports.push(message ?? '');
        // The first step seen, whichever it is: the task is polled at the pace of its steps, so a
        // poll that comes late (a busy machine) skips some of them.
        if (message?.startsWith('step ')) turn.abort(new Error('the turn ended'));
      },
    },
  );
  const failure = await rejection(call.result);
  expect(isMcpError(failure, 'aborted')).toBe(true);
  expect(call.state).toBe('cancelled');
  expect(reports.at(-1)).toMatch(/^step \d+ of 1000$/);
  const events = (await readFile(record, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const created = events.find((event) => 'created' in event)?.created;
  expect(events).toContainEqual({ cancelled: created });
});
