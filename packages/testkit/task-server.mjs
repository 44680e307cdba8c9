#!/usr/bin/env node
// A 2026-07-28 server with task tools (the `io.modelcontextprotocol/tasks` extension), built on the
// official server SDK (`@modelcontextprotocol/server`), served over stdio or Streamable HTTP (127.0.0.1).
// The SDK has no task runtime for that revision, so the extension's three methods are registered
// here as a server author does it: tasks/get, tasks/update, tasks/cancel with explicit schemas, and
// tools/call answering `resultType: "task"` when the request declared the extension.
//
// Tools:
//   work     a task (taskSupport `required`): `steps` steps of `stepMs` ms, each one a status message
//            "step <n> of <steps>"; then the text "done <steps>", or with `fail` the task fails
//            (status `failed`, a JSON-RPC error), or with `ask` the task asks the question
//            (input_required, one elicitation/create form with a text field `name`) before its last
//            step and answers "hello <name>" (or what the answer was).
//   plain    the same work without a task: sleeps `steps` x `stepMs` ms, then "done <steps>".
//   count    `work` with an outputSchema (`{count: integer}`): its result's
//            structuredContent is `{count: <steps>}`, or with `wrong` the count as a string, which
//            the schema refuses.
//   A call of `work` whose request did not declare the extension is refused with -32021.
//
//   --http           Streamable HTTP: prints `listening <url>` on stdout once it listens
//   --poll-ms=N      the pollIntervalMs it gives (default 50)
//   --ttl-ms=N       the ttlMs it gives (default 600000): a task is forgotten that long after it
//                    was made (tasks/get, tasks/cancel then answer -32602, as for an unknown id)
//   --id-chars=N     each task's id made N characters long: its usual id padded with --id-pad's
//                    text (default "x"), as a server whose ids are hostile sends them
//   --notify         status notifications: a subscriptions/listen asking for `taskIds` is
//                    served here (the SDK knows no such filter), acknowledged with those ids, and
//                    each change of such a task is pushed as `notifications/tasks` with the task
//                    as tasks/get gives it. A task then waits (up to 2 s) for a subscription to it
//                    before its first step, so every step is one a subscriber is told of.
//
// A tool's `execution.taskSupport` is put back on the wire of tools/list: the SDK's 2026-07-28 Tool
// has no `execution` and drops it, while the tasks extension's servers mark their task tools with
// it (`work`, `count`: required).
//   $RECORD_FILE     one JSON line per task event: {"created": id}, {"get": id}, {"cancelled": id},
//                    {"update": id, "actions": [...]} (the answers' actions, never values)
// It exits when stdin ends (and over HTTP on SIGTERM).
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import {
  createMcpHandler,
  fromJsonSchema,
  McpServer,
  ProtocolError,
} from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { bridge } from './http-bridge.mjs';

const args = process.argv.slice(2);
const option = (name) =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? undefined;
const record = (entry) => {
  if (process.env.RECORD_FILE)
    appendFileSync(process.env.RECORD_FILE, `${JSON.stringify(entry)}\n`);
};
const EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const POLL_MS = Number(option('poll-ms') ?? 50);
const NOTIFY = args.includes('--notify');
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** The task tools, as the wire of tools/list marks them. */
const MARKS = { work: 'required', count: 'required' };
/**
 * The outputSchemas the wire of tools/list gives: the SDK checks what a tool's handler returns
 * against it, and a handler that makes a task returns the task, not the tool's result.
 */
const OUTPUT_SCHEMAS = {
  count: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
};
const TTL_MS = Number(option('ttl-ms') ?? 600_000);
const ID_CHARS = option('id-chars') === undefined ? undefined : Number(option('id-chars'));
const ID_PAD = option('id-pad') ?? 'x';

/** The id of the `n`th task: `task-<pid>-<n>`, or with --id-chars padded to that length. */
function idOf(n) {
  const id = `task-${process.pid}-${n}-`;
  return ID_CHARS === undefined ? id.slice(0, -1) : id.padEnd(ID_CHARS, ID_PAD);
}

/** Every task of this process, by id: an HTTP server makes an instance per request. */
const tasks = new Map();
let nextTask = 1;

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const loose = {
  '~standard': { version: 1, vendor: 'task-server', validate: (value) => ({ value }) },
};

/** The task as the wire has it (tasks/get: with its result, error or questions). */
function detailed(task) {
  const base = {
    taskId: task.id,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: TTL_MS,
    pollIntervalMs: POLL_MS,
    ...(task.message === undefined ? {} : { statusMessage: task.message }),
  };
  if (task.status === 'completed') return { ...base, result: task.result };
  if (task.status === 'failed') return { ...base, error: task.error };
  if (task.status === 'input_required') return { ...base, inputRequests: task.questions };
  return base;
}

function update(task, status, fields = {}) {
  Object.assign(task, { status, lastUpdatedAt: new Date().toISOString() }, fields);
  notify(task);
}

/**
 * The open subscriptions to tasks (--notify), by the listen request's id: its task ids, and how a
 * message reaches its stream (the stdio wire; over HTTP, the listen request's SSE answer).
 */
const listening = new Map();
/** Sends a message on the stdio wire, past the SDK (set once the wire is made). */
let sendRaw = () => Promise.resolve();

function notify(task) {
  let watched = false;
  for (const [id, { taskIds, send }] of listening) {
    if (!taskIds.includes(task.id)) continue;
    watched = true;
    record({ notified: task.id, status: task.status });
    void send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...detailed(task), _meta: { [SUBSCRIPTION_ID]: id } },
    }).catch(() => {});
  }
  if (watched) task.watched?.();
}

/** A subscriptions/listen asking for task ids, with --notify: the ids it is told of; else none. */
function taskListen(message) {
  const taskIds = message.params?.notifications?.taskIds;
  return message.method === 'subscriptions/listen' && NOTIFY && Array.isArray(taskIds)
    ? taskIds
    : undefined;
}

/** Opens the subscription of listen request `id` to `taskIds`, on the stream `send` writes to. */
function subscribe(id, taskIds, send) {
  const honored = taskIds.filter((taskId) => tasks.has(taskId));
  record({ listen: honored });
  listening.set(id, { taskIds: honored, send });
  void send({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { taskIds: honored }, _meta: { [SUBSCRIPTION_ID]: id } },
  }).catch(() => {});
  for (const taskId of honored) tasks.get(taskId).watched?.();
}

/** Serves what the SDK has no runtime for (see the header); true when `message` was served. */
function served(message) {
  const taskIds = taskListen(message);
  if (taskIds !== undefined) {
    subscribe(message.id, taskIds, (sent) => sendRaw(sent));
    return true;
  }
  if (message.method === 'notifications/cancelled' && listening.has(message.params?.requestId)) {
    listening.delete(message.params.requestId);
    return true;
  }
  return false;
}

/** The marks of the task tools, put back on a tools/list result the SDK made without them. */
function marked(message) {
  const tools = message.result?.tools;
  if (!Array.isArray(tools)) return message;
  const withMarks = tools.map((tool) => ({
    ...tool,
    ...(MARKS[tool.name] === undefined ? {} : { execution: { taskSupport: MARKS[tool.name] } }),
    ...(OUTPUT_SCHEMAS[tool.name] === undefined ? {} : { outputSchema: OUTPUT_SCHEMAS[tool.name] }),
  }));
  return { ...message, result: { ...message.result, tools: withMarks } };
}

/**
 * `fetch` with the answer to tools/list marked(), whether JSON or one SSE event; with --notify, a
 * subscriptions/listen asking for task ids answered here with its SSE stream.
 */
function markedFetch(fetch) {
  return async (request) => {
    const asked = await request
      .clone()
      .json()
      .catch(() => undefined);
    const taskIds = asked === undefined ? undefined : taskListen(asked);
    if (taskIds !== undefined) return listenStream(asked.id, taskIds, request.signal);
    const answer = await fetch(request);
    if (asked?.method !== 'tools/list') return answer;
    const body = await answer.text();
    const rewritten = body
      .split('\n')
      .map((line) => {
        const json = line.startsWith('data: ') ? line.slice(6) : line;
        try {
          const message = marked(JSON.parse(json));
          return `${line.startsWith('data: ') ? 'data: ' : ''}${JSON.stringify(message)}`;
        } catch {
          return line;
        }
      })
      .join('\n');
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    return new Response(rewritten, { status: answer.status, headers });
  };
}

/** The SSE answer of a listen request over HTTP: its subscription's stream, until the client goes. */
function listenStream(id, taskIds, signal) {
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    start(controller) {
      const send = async (message) => {
        controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      };
      subscribe(id, taskIds, send);
      signal.addEventListener('abort', () => {
        listening.delete(id);
        try {
          controller.close();
        } catch {}
      });
    },
    cancel() {
      listening.delete(id);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/** The stdio transport, with served() and marked() between it and the SDK. */
function stdioWire() {
  const transport = new StdioServerTransport();
  const send = transport.send.bind(transport);
  sendRaw = send;
  let deliver;
  Object.defineProperty(transport, 'onmessage', {
    get: () => (message, extra) => {
      if (!served(message)) deliver?.(message, extra);
    },
    set: (handler) => {
      deliver = handler;
    },
  });
  transport.send = (message, options) => send(marked(message), options);
  return transport;
}

const sleep = (ms, task) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    task.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });

async function run(task, { steps = 3, stepMs = 100, fail = false, ask = false }, counted) {
  if (NOTIFY) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      task.watched = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  for (let n = 1; n <= steps; n++) {
    if (task.status === 'cancelled') return;
    if (ask && n === steps) {
      update(task, 'input_required', {
        message: 'waiting for your name',
        questions: {
          name: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'What is your name?',
              requestedSchema: {
                type: 'object',
                properties: { name: { type: 'string', title: 'Name' } },
                required: ['name'],
              },
            },
          },
        },
      });
      await new Promise((resolve) => {
        task.answered = resolve;
      });
      if (task.status === 'cancelled') return;
    }
    update(task, 'working', { message: `step ${n} of ${steps}` });
    await sleep(stepMs, task);
  }
  if (task.status === 'cancelled') return;
  if (fail) {
    update(task, 'failed', { error: { code: -32603, message: 'the work broke at its last step' } });
    return;
  }
  const answer = task.answer;
  const said =
    answer === undefined
      ? `done ${steps}`
      : answer.action === 'accept'
        ? `hello ${answer.content?.name}`
        : `no name (${answer.action})`;
  const structured = counted?.wrong ? { count: String(steps) } : { count: steps };
  const result =
    counted === undefined ? text(said) : { ...text(said), structuredContent: structured };
  update(task, 'completed', { result: { ...result, resultType: 'complete' } });
}

function factory() {
  const server = new McpServer(
    { name: 'task-server', version: '1.0.0' },
    { capabilities: { tools: {}, extensions: { [EXTENSION]: {} } } },
  );
  const schema = fromJsonSchema({
    type: 'object',
    properties: {
      steps: { type: 'integer' },
      stepMs: { type: 'integer' },
      fail: { type: 'boolean' },
      ask: { type: 'boolean' },
    },
  });
  /** Makes a task of the call and runs it (`counted`: the `count` tool's arguments). */
  const asTask = (name, input, ctx, counted) => {
    const declared = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES]?.extensions?.[EXTENSION];
    if (declared === undefined) {
      throw new ProtocolError(-32021, `Tool "${name}" must run as a task: declare ${EXTENSION}`, {
        requiredCapabilities: { extensions: { [EXTENSION]: {} } },
      });
    }
    const now = new Date().toISOString();
    const task = { id: idOf(nextTask++), createdAt: now, lastUpdatedAt: now };
    update(task, 'working', { message: 'starting' });
    tasks.set(task.id, task);
    setTimeout(() => tasks.delete(task.id), TTL_MS).unref();
    record({ created: task.id });
    void run(task, input, counted);
    const { statusMessage: _, ...created } = detailed(task);
    return { resultType: 'task', ...created };
  };
  server.registerTool(
    'work',
    {
      description: 'Long work, as a task',
      inputSchema: schema,
      execution: { taskSupport: 'required' },
    },
    (input, ctx) => asTask('work', input, ctx),
  );
  server.registerTool(
    'count',
    {
      description: 'Long work, as a task, whose result has a count',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: {
          steps: { type: 'integer' },
          stepMs: { type: 'integer' },
          wrong: { type: 'boolean' },
        },
      }),
      execution: { taskSupport: 'required' },
    },
    (input, ctx) => asTask('count', input, ctx, { wrong: input.wrong === true }),
  );
  server.registerTool(
    'plain',
    { description: 'The same work, no task', inputSchema: schema },
    async (input) => {
      await new Promise((resolve) =>
        setTimeout(resolve, (input.steps ?? 3) * (input.stepMs ?? 100)),
      );
      return text(`done ${input.steps ?? 3}`);
    },
  );
  const known = (taskId) => {
    const task = tasks.get(taskId);
    if (task === undefined) throw new ProtocolError(-32602, `unknown task ${taskId}`);
    return task;
  };
  server.server.setRequestHandler('tasks/get', { params: loose, result: loose }, (params) => {
    const task = known(params.taskId);
    // What the look was told: a test compares it with the progress the client showed.
    record({ get: params.taskId, status: task.status, said: task.message });
    return { resultType: 'complete', ...detailed(task) };
  });
  server.server.setRequestHandler('tasks/cancel', { params: loose, result: loose }, (params) => {
    const task = known(params.taskId);
    record({ cancelled: params.taskId });
    if (!['completed', 'failed', 'cancelled'].includes(task.status)) {
      update(task, 'cancelled', { message: 'cancelled by the client' });
      task.wake?.();
      task.answered?.();
    }
    return { resultType: 'complete' };
  });
  server.server.setRequestHandler(
    'tasks/update',
    { params: loose, result: loose },
    (params, ctx) => {
      const task = known(params.taskId);
      // The SDK takes a request's inputResponses out of its params, as it does for a retried call.
      const answer = (params.inputResponses ?? ctx.mcpReq.inputResponses)?.name;
      record({ update: params.taskId, actions: answer === undefined ? [] : [answer.action] });
      if (task.status === 'input_required' && answer !== undefined) {
        task.answer = answer;
        update(task, 'working', { message: 'answered', questions: undefined });
        task.answered?.();
      }
      return { resultType: 'complete' };
    },
  );
  return server;
}

if (args.includes('--http')) {
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const http = createServer((request, response) => {
    bridge(markedFetch(handler.fetch), request, response, () => {}).catch(() => response.destroy());
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  const stop = () => {
    http.closeAllConnections();
    http.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop).resume();
} else {
  serveStdio(factory, { legacy: 'reject', transport: stdioWire() });
}
