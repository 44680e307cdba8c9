#!/usr/bin/env node
// The one hand-written stdio MCP server for tests across the packages: a well-behaved server whose
// tools, records and few misbehaviours are chosen by arguments and environment. Servers that must
// break the protocol or the framing on purpose live beside their tests instead.
//
// Tools, by catalog (`--catalog=`):
//   pid (default)   `whoami` plus one tool per `--tool=<name>`; every call answers
//                   `{"pid": <its pid>, "tool": <name>}`, so a test tells a server left running from
//                   one restarted. `--growable` adds `grow`, which adds `grown` and sends
//                   notifications/tools/list_changed after its answer. `--mutable` adds `touch`,
//                   which sends list_changed after its answer, having first set the description
//                   of `whoami` to its `description` argument when it has one (else the list
//                   stays as it was).
//   annotated       `lookup` and `forget`: a title, each annotation hint (true and false) and
//                   parameters of several schema types, one required; every call answers "done".
//   cli             echo (text back, `times` over), fail (a result with isError), image (a 3-byte
//                   PNG), slow (answers only when cancelled: never), whoami ({"pid": ...}).
//   refs            `book_trip` (refs-tool.mjs): an input schema of `$defs` and `$ref`s, some leading
//                   nowhere; `--network-ref=<url>` is its one ref to another document. A call
//                   answers with its arguments as JSON, so a test sees how each was typed.
//   form            `order`: an input schema with a nested object (by `$ref`), an array of objects,
//                   an enum with a default, a boolean and a union, and an output schema; a call
//                   answers with its arguments, as JSON text and as structuredContent.
//   progress        tools that report progress (to the call's progressToken; none without one) and
//                   log (it declares `logging`): `tick` (a report, "tick <n>", every `every_ms`
//                   for `for_ms`, then the answer "ticked <n> times"), `until_file` (a report,
//                   "waiting", every `every_ms` until file `file` exists, then the answer
//                   "released"; for ever if it never does), `stall` (`reports` reports at once,
//                   then nothing, no answer), `flood` (`reports` reports at once, each
//                   "flood" and counting to a total of `reports`, then the answer "flooded
//                   <reports>"), `log` (`count` notifications/message of `level` with data
//                   "<text> <n>", then the answer "logged <count>"). A cancelled call stops
//                   reporting.
//   ask             a server that asks the person (2025-era elicitation/create requests of its
//                   own, whether or not the client said it can be asked): `ask` sends `question`
//                   (the request's params as given) `times` times, one after another, then answers
//                   with what each answer was, as JSON: its action and the names of the fields it
//                   carried, never their values (`$RECORD_FILE` has those) — or, with `fail`, a
//                   JSON-RPC error; with `hasty`, it answers "asked" at once, not waiting for the
//                   answer; with `complete`, it sends notifications/elicitation/complete for the
//                   question's elicitationId before it answers; with `echo`, it writes each
//                   accepted answer's content to stderr and into its error (a careless server);
//                   `slow` answers only when cancelled: never.
// Any other argument (`--tag=v2`, a marker) is ignored: changing it changes the config, not the
// server.
//
// Records and misbehaviour:
//   $RECORD_FILE           one JSON line per message received ({method, id, params}; an answer to
//                          one of its own requests as {id, result} or {id, error})
//   $PID_FILE              the pid of this process and of each helper it starts, one per line
//   --slow-start=MS        answer initialize only after MS milliseconds
//   --never-start          never answer initialize
//   --start-when=F         answer initialize only once file F exists (a server that is slow for as
//                          long as the test wants, however slow the machine)
//   --instructions=N       initialize answers with N characters of instructions, which begin with the
//                          value of $API_KEY (a server that echoes what it was started with)
//   --list-changed-at-start  send notifications/tools/list_changed as soon as the client says it
//                          is initialized, before anything changed (as many SDK servers do when
//                          they register their tools)
//   --initialize-first     exit with code 1 when a request comes before initialize, as the servers of
//                          some SDKs do
//   --silent-unknown       never answer a request for a method it does not know
//   --exit-at-start-if=F   exit with code 3 at start while file F exists (a server that keeps dying
//                          until the test removes F)
//   --hostile              what the worst real servers do: ignore SIGTERM and the end of stdin, and
//                          start two helpers that do the same, a grandchild in our group and one
//                          that escapes it with setsid
// Otherwise it exits when stdin ends, like a well-behaved server.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { refsTool } from './refs-tool.mjs';
import { methodNotFound, reply, send, serveStdio } from './stdio-fixture.mjs';

const args = process.argv.slice(2);
const self = fileURLToPath(import.meta.url);
const option = (name) =>
  args.filter((arg) => arg.startsWith(`--${name}=`)).map((arg) => arg.slice(name.length + 3));
const recordPid = (pid) => {
  if (process.env.PID_FILE) appendFileSync(process.env.PID_FILE, `${pid}\n`);
};

const CATALOGS = {
  pid: {
    serverInfo: { name: 'pid-server', version: '1.0.0' },
    capabilities: { tools: { listChanged: true } },
    tools: () =>
      ['whoami', ...extraTools].map((name) => ({
        name,
        description: descriptions.get(name) ?? `${name} of pid-server`,
        inputSchema: { type: 'object' },
      })),
    call: callPid,
  },
  annotated: {
    serverInfo: { name: 'annotated-server', version: '1.0.0' },
    capabilities: { tools: {} },
    tools: () => ANNOTATED_TOOLS,
    call: (message) => reply(message, { content: [{ type: 'text', text: 'done' }] }),
  },
  cli: {
    serverInfo: { name: 'cli-tool-server', version: '1.0.0' },
    capabilities: { tools: {} },
    tools: () => CLI_TOOLS,
    call: callCli,
  },
  refs: {
    serverInfo: { name: 'refs-server', version: '1.0.0' },
    capabilities: { tools: {} },
    // `.invalid` never resolves: without the option, a client that fetched it would fail anyway.
    tools: () => [refsTool(option('network-ref')[0] ?? 'https://schemas.invalid/airline.json')],
    call: (message) =>
      reply(message, {
        content: [{ type: 'text', text: JSON.stringify(message.params.arguments ?? {}) }],
      }),
  },
  progress: {
    serverInfo: { name: 'progress-server', version: '1.0.0' },
    capabilities: { tools: {}, logging: {} },
    tools: () => PROGRESS_TOOLS,
    call: callProgress,
  },
  ask: {
    serverInfo: { name: 'ask-server', version: '1.0.0' },
    capabilities: { tools: {} },
    tools: () => ASK_TOOLS,
    call: (message) => void callAsk(message),
  },
  form: {
    serverInfo: { name: 'form-server', version: '1.0.0' },
    capabilities: { tools: {} },
    tools: () => [ORDER_TOOL],
    call: (message) => {
      const input = message.params.arguments ?? {};
      return reply(message, {
        content: [{ type: 'text', text: JSON.stringify(input) }],
        structuredContent: input,
      });
    },
  },
};

const ASK_TOOLS = [
  {
    name: 'ask',
    description: 'Asks the person `question` (elicitation/create params) `times` times',
    inputSchema: {
      type: 'object',
      properties: {
        question: { type: 'object' },
        times: { type: 'integer' },
        fail: { type: 'boolean' },
        hasty: { type: 'boolean' },
        complete: { type: 'boolean' },
        echo: { type: 'boolean' },
      },
      required: ['question'],
    },
  },
  {
    name: 'slow',
    description: 'Answers only when cancelled: never',
    inputSchema: { type: 'object' },
  },
];

const ORDER_TOOL = {
  name: 'order',
  title: 'Place an order',
  description: 'Sends a parcel; answers with the arguments it was given.',
  inputSchema: {
    type: 'object',
    $defs: {
      address: {
        type: 'object',
        description: 'Where it goes',
        properties: { street: { type: 'string' }, zip: { type: 'integer' } },
        required: ['street'],
      },
    },
    properties: {
      customer: { type: 'string', description: 'Who orders' },
      speed: { enum: ['standard', 'express'], default: 'standard' },
      ship_to: { $ref: '#/$defs/address' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { sku: { type: 'string' }, qty: { type: 'integer', default: 1 } },
          required: ['sku'],
        },
      },
      gift: { type: 'boolean' },
      note: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['customer', 'items'],
  },
  outputSchema: { type: 'object', description: 'The arguments it was given' },
};

const ANNOTATED_TOOLS = [
  {
    name: 'lookup',
    title: 'Look up a word',
    description: 'Finds a word in the dictionary.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      type: 'object',
      properties: {
        word: { type: 'string', description: 'The word to find' },
        limit: { type: 'integer' },
        mode: { enum: ['exact', 'fuzzy'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['word'],
    },
  },
  {
    name: 'forget',
    description: 'Deletes a word from the dictionary.',
    annotations: { destructiveHint: true, idempotentHint: true },
    inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  },
];

const CLI_TOOLS = [
  {
    name: 'echo',
    title: 'Echo',
    description: 'Says back what it is given',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'what to say' },
        times: { type: 'integer' },
      },
      required: ['text'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'fail',
    description: 'Always reports an error',
    inputSchema: { type: 'object' },
    annotations: { destructiveHint: true },
  },
  { name: 'image', description: 'A tiny image', inputSchema: { type: 'object' } },
  { name: 'slow', description: 'Answers only when cancelled', inputSchema: { type: 'object' } },
  { name: 'whoami', description: 'Its pid', inputSchema: { type: 'object' } },
];

const PROGRESS_TOOLS = [
  {
    name: 'tick',
    description: 'Reports progress every every_ms for for_ms, then answers',
    inputSchema: {
      type: 'object',
      properties: { every_ms: { type: 'integer' }, for_ms: { type: 'integer' } },
      required: ['every_ms', 'for_ms'],
    },
  },
  {
    name: 'until_file',
    description: 'Reports progress every every_ms until a file exists, then answers',
    inputSchema: {
      type: 'object',
      properties: { file: { type: 'string' }, every_ms: { type: 'integer' } },
      required: ['file', 'every_ms'],
    },
  },
  {
    name: 'stall',
    description: 'Reports progress a few times, then goes silent',
    inputSchema: { type: 'object', properties: { reports: { type: 'integer' } } },
  },
  {
    name: 'flood',
    description: 'Reports progress many times at once, then answers',
    inputSchema: {
      type: 'object',
      properties: { reports: { type: 'integer' } },
      required: ['reports'],
    },
  },
  {
    name: 'log',
    description: 'Sends log messages, then answers',
    inputSchema: {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        level: { type: 'string' },
        text: { type: 'string' },
      },
    },
  },
];

/** The reporting of each call in flight, by request id: a cancel stops it. */
const reporting = new Map();

function callProgress(message) {
  const { name, arguments: input = {}, _meta: meta } = message.params;
  const token = meta?.progressToken;
  let count = 0;
  const report = (total, text) => {
    count += 1;
    if (token === undefined) return;
    send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: count, ...total, message: text },
    });
  };
  const every = (ms, step) => {
    const timer = setInterval(step, ms);
    reporting.set(message.id, timer);
    return () => {
      clearInterval(timer);
      reporting.delete(message.id);
    };
  };
  const answer = (text) => reply(message, { content: [{ type: 'text', text }] });
  switch (name) {
    case 'tick': {
      const ends = Date.now() + input.for_ms;
      const stop = every(input.every_ms, () => {
        report({}, `tick ${count + 1}`);
        if (Date.now() < ends) return;
        stop();
        answer(`ticked ${count} times`);
      });
      return;
    }
    case 'until_file': {
      const stop = every(input.every_ms, () => {
        if (existsSync(input.file)) {
          stop();
          answer('released');
        } else report({}, 'waiting');
      });
      return;
    }
    case 'stall':
      for (let i = 0; i < (input.reports ?? 2); i++) report({ total: 10 }, 'started');
      return;
    case 'flood':
      for (let i = 1; i <= input.reports; i++) report({ total: input.reports }, 'flood');
      return answer(`flooded ${input.reports}`);
    case 'log': {
      const total = input.count ?? 1;
      for (let i = 1; i <= total; i++) {
        send({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: input.level ?? 'info', logger: 'fixture', data: `${input.text} ${i}` },
        });
      }
      return answer(`logged ${total}`);
    }
    default:
      return send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32602, message: `unknown tool ${name}` },
      });
  }
}

const extraTools = option('tool');
if (args.includes('--growable')) extraTools.push('grow');
if (args.includes('--mutable')) extraTools.push('touch');
/** Descriptions `touch` set, by tool name. */
const descriptions = new Map();
const listChanged = () =>
  setImmediate(() => send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));

function callPid(message) {
  const { name, arguments: input = {} } = message.params;
  if (name === 'grow' && !extraTools.includes('grown')) {
    extraTools.push('grown');
    listChanged();
  }
  if (name === 'touch') {
    if (typeof input.description === 'string') descriptions.set('whoami', input.description);
    listChanged();
  }
  return reply(message, {
    content: [{ type: 'text', text: JSON.stringify({ pid: process.pid, tool: name }) }],
  });
}

function callCli(message) {
  const { name, arguments: input = {} } = message.params;
  switch (name) {
    case 'echo':
      return reply(message, {
        content: [{ type: 'text', text: String(input.text).repeat(input.times ?? 1) }],
      });
    case 'fail':
      return reply(message, { content: [{ type: 'text', text: 'it broke' }], isError: true });
    case 'image':
      return reply(message, { content: [{ type: 'image', data: 'iVBO', mimeType: 'image/png' }] });
    case 'whoami':
      return reply(message, {
        content: [{ type: 'text', text: JSON.stringify({ pid: process.pid }) }],
      });
    case 'slow':
      return;
    default:
      return send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32602, message: `unknown tool ${name}` },
      });
  }
}

/** This server's own requests waiting for the client's answer, by id. */
const awaiting = new Map();
let lastRequestId = 0;

/** Sends elicitation/create with `params`; resolves with the client's answer (result or error). */
function elicit(params) {
  lastRequestId += 1;
  const id = `ask-${lastRequestId}`;
  send({ jsonrpc: '2.0', id, method: 'elicitation/create', params });
  return new Promise((resolve) => awaiting.set(id, resolve));
}

async function callAsk(message) {
  const { name, arguments: input = {} } = message.params;
  if (name === 'slow') return;
  if (input.hasty === true) {
    void elicit(input.question);
    return reply(message, { content: [{ type: 'text', text: 'asked' }] });
  }
  const answers = [];
  const heard = [];
  for (let n = 0; n < (input.times ?? 1); n++) {
    const answer = await elicit(input.question);
    if (input.echo === true && answer.result?.content !== undefined) {
      heard.push(JSON.stringify(answer.result.content));
      process.stderr.write(`heard ${heard.at(-1)}\n`);
    }
    answers.push(
      answer.error === undefined
        ? {
            action: answer.result.action,
            fields: Object.keys(answer.result.content ?? {}).sort(),
          }
        : { error: answer.error.code },
    );
  }
  if (input.complete === true) {
    send({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/complete',
      params: { elicitationId: input.question.elicitationId },
    });
  }
  if (input.fail === true) {
    return send({
      jsonrpc: '2.0',
      id: message.id,
      error: {
        code: -32000,
        message: `the server could not go on without an answer${heard.length > 0 ? `; it heard ${heard.join(', ')}` : ''}`,
      },
    });
  }
  reply(message, { content: [{ type: 'text', text: JSON.stringify(answers) }] });
}

const catalog = CATALOGS[option('catalog')[0] ?? 'pid'];
if (catalog === undefined) {
  process.stderr.write(`fixture-server: no catalog ${option('catalog')[0]}\n`);
  process.exit(2);
}

function instructions() {
  const [chars] = option('instructions');
  if (chars === undefined) return {};
  return { instructions: `${process.env.API_KEY ?? ''} Call whoami.`.padEnd(Number(chars), '.') };
}

let initialized = false;

function handle(message) {
  if (process.env.RECORD_FILE) {
    const { method, id, params, result, error } = message;
    appendFileSync(
      process.env.RECORD_FILE,
      `${JSON.stringify(method === undefined ? { id, result, error } : { method, id, params })}\n`,
    );
  }
  // An answer to one of this server's own requests.
  if (message.method === undefined && awaiting.has(message.id)) {
    awaiting.get(message.id)(message);
    awaiting.delete(message.id);
    return;
  }
  if (message.method === 'notifications/initialized' && args.includes('--list-changed-at-start')) {
    listChanged();
  }
  if (message.method === 'notifications/cancelled') {
    clearInterval(reporting.get(message.params.requestId));
    reporting.delete(message.params.requestId);
  }
  if (message.id === undefined) return;
  if (message.method === 'initialize') initialized = true;
  else if (!initialized && args.includes('--initialize-first')) process.exit(1);
  switch (message.method) {
    case 'initialize': {
      if (args.includes('--never-start')) return;
      const answer = () => {
        reply(message, {
          protocolVersion: message.params.protocolVersion,
          capabilities: catalog.capabilities,
          serverInfo: catalog.serverInfo,
          ...instructions(),
        });
      };
      const [startWhen] = option('start-when');
      if (startWhen !== undefined) return whenExists(startWhen, answer);
      const slowStart = Number(option('slow-start')[0] ?? 0);
      return slowStart > 0 ? setTimeout(answer, slowStart) : answer();
    }
    case 'ping':
      return reply(message, {});
    case 'tools/list':
      return reply(message, { tools: catalog.tools() });
    case 'tools/call':
      return catalog.call(message);
    default:
      if (args.includes('--silent-unknown')) return;
      return methodNotFound(message);
  }
}

/** Calls `then` once `file` exists. */
function whenExists(file, then) {
  if (existsSync(file)) then();
  else setTimeout(() => whenExists(file, then), 10);
}

recordPid(process.pid);
if (args.includes('--helper')) {
  // A helper of a hostile server: ignores SIGTERM and runs until killed.
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1 << 30);
} else {
  const [dieIf] = option('exit-at-start-if');
  if (dieIf !== undefined && existsSync(dieIf)) {
    process.stderr.write('dying: the test asked for it\n');
    process.exit(3);
  }
  const hostile = args.includes('--hostile');
  if (hostile) {
    process.on('SIGTERM', () => {});
    for (const [command, argv] of [
      [process.execPath, [self, '--helper']],
      ['setsid', [process.execPath, self, '--helper']],
    ]) {
      const child = spawn(command, argv, { stdio: 'ignore' });
      recordPid(child.pid);
    }
  }
  serveStdio(handle, hostile ? () => {} : undefined);
}
