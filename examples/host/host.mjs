// A complete minimal agent host on @epoch-agent/runtime, run by `node examples/host/host.mjs`
// after the build: it assembles the runtime (one server of its own, the reference server, and the
// user's mcp.json), offers the tools to a model through the Anthropic adapter, runs a scripted
// tool loop (a fake model that is a list of tool calls, so no network and no API key), cancels one
// call with an AbortSignal, puts a server's question to the person at the terminal (the `elicit`
// callback, ask-person.mjs: the answers are read from stdin, never made up by the host or the
// model), edits the user's mcp.json while running and applies it (the new server approved through
// the `approve` callback, as a host asks its user), and closes with nothing left running. Every
// server it starts carries EPOCH_EXAMPLE_RUN in its environment, so whoever runs it can check that
// none outlives it.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRuntime } from '@epoch-agent/runtime';
import {
  executeTool,
  toAnthropicToolResult,
  toAnthropicTools,
} from '@epoch-agent/runtime/adapters';
import { EVERYTHING_ENTRY, fixtureServerEntry } from '@epoch-agent/testkit';
import { terminalAsker } from './ask-person.mjs';

const run = process.env.EPOCH_EXAMPLE_RUN ?? `host-${process.pid}`;
const env = { EPOCH_EXAMPLE_RUN: run };
// Its own EPOCH_HOME (schema cache, saved results) unless one is given, removed at the end.
const ownHome = process.env.EPOCH_HOME === undefined;
const home = process.env.EPOCH_HOME ?? (await mkdtemp(join(tmpdir(), 'epoch-host-')));
process.env.EPOCH_HOME = home;
const configFile = join(home, 'mcp.json');

// The user's file, written whole and renamed into place: the runtime may be reading it.
async function writeUserConfig(servers) {
  const temporary = `${configFile}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ servers }, null, 2));
  await rename(temporary, configFile);
}

await writeUserConfig({ fixture: { ...fixtureServerEntry('cli'), env } });
// Each running call's ToolContext -> its id: a question names the call it belongs to by it.
const callOf = new WeakMap();
const asker = terminalAsker(callOf);
const runtime = await buildRuntime({
  configFile,
  hostCapabilities: {
    namespace: 'acme',
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env },
    },
  },
  // Asked before a server that needs approval starts: here the one this script writes into the
  // user's file while it runs. A real host shows its user `launch` (the command or URL) first.
  approve: ({ server, reason, launch }) => {
    console.log(`approval asked: ${server} (${reason}), runs ${launch.command?.[0] ?? launch.url}`);
    return server === 'second';
  },
  // A server's question goes to the person, never to the model.
  elicit: asker.elicit,
});

try {
  for (const status of runtime.mcp.statuses())
    console.log(`server ${status.name}: ${status.state}`);
  const offered = toAnthropicTools(runtime.tools.tools());
  console.log(`tools offered: ${offered.length}`);

  // The fake model: each turn is the tool_use blocks a model would answer with.
  const script = [
    [
      { id: 'toolu_1', name: 'mcp__acme__everything__get-sum', input: { a: 19, b: 23 } },
      { id: 'toolu_2', name: 'mcp__fixture__echo', input: { text: 'hello' } },
    ],
    [{ id: 'toolu_3', name: 'mcp__fixture__slow', input: {}, cancel: true }],
    // A long call: each step the server reports reaches onProgress (and keeps the call alive
    // past its timeout).
    [
      {
        id: 'toolu_4',
        name: 'mcp__acme__everything__trigger-long-running-operation',
        input: { duration: 1, steps: 2 },
      },
    ],
    // A tool that stops to ask the person to fill in a form before it answers.
    [{ id: 'toolu_5', name: 'mcp__acme__everything__trigger-elicitation-request', input: {} }],
  ];
  const messages = [{ role: 'user', content: 'Use the tools.' }];
  for (const turn of script) {
    messages.push({
      role: 'assistant',
      content: turn.map(({ id, name, input }) => ({ type: 'tool_use', id, name, input })),
    });
    const results = [];
    for (const call of turn) {
      const tool = runtime.tools.get(call.name);
      if (tool === undefined)
        throw new Error(`the model called ${call.name}, which is not offered`);
      const controller = new AbortController();
      const onProgress = ({ progress, total, message }) =>
        console.log(
          `  progress ${progress}${total === undefined ? '' : `/${total}`}${message ? ` ${message}` : ''}`,
        );
      const context = { signal: controller.signal, onProgress };
      callOf.set(context, call.id);
      const pending = executeTool(tool, call.input, context);
      // The user stops this call: the server is told (notifications/cancelled), and the model
      // gets an error result saying so.
      if (call.cancel) controller.abort();
      const block = toAnthropicToolResult(call.id, await pending);
      const text = (block.content ?? []).map((part) => part.text ?? `[${part.type}]`).join(' ');
      console.log(`${call.name}${block.is_error ? ' (error)' : ''}: ${text.replaceAll('\n', ' ')}`);
      results.push(block);
    }
    messages.push({ role: 'user', content: results });
  }

  // A live edit of the user's file: one more server; the runtime applies it and the tool list changes.
  const before = new Set(runtime.tools.tools().map(({ name }) => name));
  await writeUserConfig({
    fixture: { ...fixtureServerEntry('cli'), env },
    second: { ...fixtureServerEntry('pid', '--tool=lookup'), env },
  });
  const applied = await runtime.applyMcpConfig();
  const after = runtime.tools.tools().map(({ name }) => name);
  console.log(`config applied: added servers ${applied.added.join(', ')}`);
  console.log(`tools added: ${after.filter((name) => !before.has(name)).join(', ')}`);
  console.log(`messages: ${messages.length}`);
} finally {
  asker.close();
  await runtime.close();
  console.log('closed');
  if (ownHome) await rm(home, { recursive: true, force: true });
}
