#!/usr/bin/env node
// A server of the 2026-07-28 protocol era, built on the official server SDK
// (`@modelcontextprotocol/server`), the way a server author writes one: one factory, served over
// stdio (serveStdio) or Streamable HTTP (createMcpHandler on 127.0.0.1). It speaks the 2025 revisions
// too, as the SDK's entries do by default, unless `--modern-only`: then a client that cannot
// negotiate 2026-07-28 cannot connect at all.
//
// Tools: echo (`message` back), whoami ({"pid": ...}), slow (answers only when cancelled), grow (adds
// the tool `grown`, which every later connection sees too, and announces the change on open
// subscriptions/listen streams). With `--catalog=refs`, only `book_trip` of refs-tool.mjs instead
// (its `$ref` to another document is `--network-ref=`), which answers with its arguments as JSON.
// It gives instructions and icons for itself, and whoami has icons and a `_meta`.
//
//   --http             Streamable HTTP: prints `listening <url>` on stdout once it listens
//   --progress         one tool more, ticks: `count` progress reports "tick <n>" to the call's
//                      progressToken, then the answer "ticked"
//   --ask              one tool more, ask: answers input_required with `times` questions (keys
//                      q1..qN, each elicitation/create with `question` as its params, form or URL)
//                      and the requestState "asked"; the retry is answered with what each answer
//                      was, as JSON: its action and the names of the fields it carried, never their
//                      values ($RECORD_FILE gets {"answers": ...} with those), or with `fail` a
//                      tool error (the server SDK makes a thrown error one)
//   --trace            two tools more, and the logging capability: traceparent (the request's
//                      `_meta.traceparent` back, or "none"), and log: `message` sent as a log
//                      message at `level` (notifications/message; the SDK sends it only at or
//                      above the level the client asked for), then "logged"
//   --modern-only      refuse the 2025 revisions
//   --legacy-only      stdio: the same server wired the 2025 way (McpServer.connect, no era entry),
//                      so a bench compares the eras on one server program
//   --tools-ttl-ms=N   tools/list carries the cache hint ttlMs N
//   --tools-scope=S    and cacheScope S (public or private; the SDK's default is private, ttlMs 0)
//   $RECORD_FILE       one JSON line per process start ({"start": pid}), per message received
//                      ({"method": ...}, with the `traceparent` its `_meta` carried), per
//                      tools/call ({"tool": ...}) and per cancellation ({"cancelled": true})
// Over stdio it exits when stdin ends; over HTTP on SIGTERM or when stdin ends.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import {
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  ProtocolError,
} from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { bridge } from './http-bridge.mjs';
import { refsTool } from './refs-tool.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) =>
  args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? undefined;
const record = (entry) => {
  if (process.env.RECORD_FILE)
    appendFileSync(process.env.RECORD_FILE, `${JSON.stringify(entry)}\n`);
};

record({ start: process.pid });
const legacy = flag('modern-only') ? 'reject' : 'serve';
const toolsHint = {
  ...(option('tools-ttl-ms') === undefined ? {} : { ttlMs: Number(option('tools-ttl-ms')) }),
  ...(option('tools-scope') === undefined ? {} : { cacheScope: option('tools-scope') }),
};
/** Shared by every instance the factory makes: `grow` is seen by every later connection. */
let grown = false;
/** The instances serving now (stdio: one per connection): `grow` gives each the new tool. */
const live = new Set();
/**
 * How `grow` reaches open subscriptions/listen streams: over stdio a tool registered on a live
 * instance announces itself; over HTTP every request has its own instance, so the handler's bus does.
 */
let announce = () => {
  for (const each of live) addGrown(each);
};

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const schema = (properties) => fromJsonSchema({ type: 'object', properties });
/**
 * The server SDK compiles an input schema to check calls against it; the refs tool is served to see
 * what a client keeps of its schema, refs that lead nowhere included, so nothing is checked.
 */
const unchecked = {
  getValidator: () => (data) => ({ valid: true, data, errorMessage: undefined }),
};

function factory() {
  return option('catalog') === 'refs' ? refsFactory() : toolsFactory();
}

function refsFactory() {
  const server = new McpServer(SERVER_INFO, serverOptions());
  const { name, title, description, inputSchema } = refsTool(
    option('network-ref') ?? 'https://schemas.invalid/airline.json',
  );
  server.registerTool(
    name,
    { title, description, inputSchema: fromJsonSchema(inputSchema, unchecked) },
    (input) => text(JSON.stringify(input)),
  );
  return server;
}

// What the server says of itself beyond its name: a host is given its icons and instructions, and
// whoami's icons and _meta.
const ICON = {
  src: 'data:image/svg+xml;base64,PHN2Zy8+',
  mimeType: 'image/svg+xml',
  sizes: ['any'],
};
const SERVER_INFO = { name: 'modern-server', version: '2.4.0', icons: [ICON] };
const INSTRUCTIONS = 'Call whoami to learn which process answers.';

function serverOptions() {
  return {
    instructions: INSTRUCTIONS,
    capabilities: { tools: { listChanged: true }, ...(flag('trace') ? { logging: {} } : {}) },
    cacheHints: { 'tools/list': toolsHint },
  };
}

function toolsFactory() {
  const server = new McpServer(SERVER_INFO, serverOptions());
  live.add(server);
  server.server.onclose = () => live.delete(server);
  const tool = (name, description, properties, handler, more = {}) =>
    server.registerTool(
      name,
      { description, inputSchema: schema(properties), ...more },
      async (input, ctx) => {
        record({ tool: name });
        return handler(input, ctx);
      },
    );
  tool('echo', 'Says the message back', { message: { type: 'string' } }, ({ message }) =>
    text(message),
  );
  tool('whoami', 'The pid of the server', {}, () => text(JSON.stringify({ pid: process.pid })), {
    icons: [ICON],
    _meta: { 'example.com/kind': 'identity' },
  });
  tool('slow', 'Answers only when cancelled', {}, (_input, ctx) => {
    const signal = ctx.mcpReq.signal;
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        record({ cancelled: true });
        reject(signal.reason);
      });
    });
  });
  if (flag('progress')) {
    tool(
      'ticks',
      'Reports progress count times, then answers',
      { count: { type: 'integer' } },
      async ({ count }, ctx) => {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        for (let n = 1; n <= count && progressToken !== undefined; n++) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: n, total: count, message: `tick ${n}` },
          });
        }
        return text('ticked');
      },
    );
  }
  if (flag('ask')) {
    tool(
      'ask',
      'Asks the person `question` (elicitation/create params), `times` questions at once',
      { question: { type: 'object' }, times: { type: 'integer' }, fail: { type: 'boolean' } },
      ({ question, times = 1, fail = false }, ctx) => {
        const keys = Array.from({ length: times }, (_, n) => `q${n + 1}`);
        const responses = ctx.mcpReq.inputResponses;
        if (responses === undefined) {
          const asked = keys.map((key) => [
            key,
            { method: 'elicitation/create', params: question },
          ]);
          return inputRequired({ inputRequests: Object.fromEntries(asked), requestState: 'asked' });
        }
        record({ answers: keys.map((key) => responses[key]) });
        if (fail) throw new ProtocolError(-32000, 'the server could not go on without an answer');
        const answers = keys.map((key) => {
          const view = inputResponse(responses, key);
          return view.kind === 'elicit'
            ? { action: view.action, fields: Object.keys(view.content ?? {}).sort() }
            : { kind: view.kind };
        });
        return text(JSON.stringify(answers));
      },
    );
  }
  if (flag('trace')) {
    tool('traceparent', 'The traceparent the call carried in its _meta', {}, (_input, ctx) =>
      text(ctx.mcpReq._meta?.traceparent ?? 'none'),
    );
    tool(
      'log',
      'Sends `message` as a log message at `level`',
      { level: { type: 'string' }, message: { type: 'string' } },
      async ({ level, message }, ctx) => {
        await ctx.mcpReq.log(level, message, 'modern-server');
        return text('logged');
      },
    );
  }
  tool('grow', 'Adds the tool grown', {}, () => {
    grown = true;
    announce();
    return text('grown');
  });
  if (grown) addGrown(server);
  return server;
}

function addGrown(server) {
  if (server.grownTool !== undefined) return;
  server.grownTool = server.registerTool(
    'grown',
    { description: 'Added by grow', inputSchema: schema({}) },
    () => text('here'),
  );
}

if (flag('http')) {
  const handler = createMcpHandler(factory, { legacy });
  announce = () => handler.notify.toolsChanged();
  const http = createServer((request, response) => {
    bridge(handler.fetch, request, response, recordMethod).catch(() => response.destroy());
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
} else if (flag('legacy-only')) {
  await factory().connect(recordingStdio());
} else {
  serveStdio(factory, { legacy, transport: recordingStdio() });
}

/** Every message as it arrives, before the SDK routes it: a test sees which handshake was made. */
function recordingStdio() {
  const transport = new StdioServerTransport();
  const start = transport.start.bind(transport);
  transport.start = async () => {
    const route = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message) record({ method: message.method, ...traceOf(message) });
      route?.(message, extra);
    };
    return start();
  };
  return transport;
}

/** The trace context a request carried in its `_meta` (SEP-414), when it carried one. */
function traceOf(message) {
  const traceparent = message.params?._meta?.traceparent;
  return typeof traceparent === 'string' ? { traceparent } : {};
}

function recordMethod(body) {
  try {
    const message = JSON.parse(body.toString('utf8'));
    if (typeof message.method === 'string') record({ method: message.method, ...traceOf(message) });
  } catch {
    // Not a JSON-RPC message (a GET, a DELETE): nothing to record.
  }
}
