// What the answer check costs an event stream (transport/answer-bodies.ts, event-stream.ts): the
// body of a text/event-stream response read through the fetch it wraps, alone and then by the
// SDK's Streamable HTTP transport as the answer to a POST (each event decoded, parsed, checked as a
// JSON-RPC message and handed on), against the same body read the same way without it. Three kinds
// of event, one per chunk as a server flushes them: a progress notification, a 1 KB tool result
// and a 64 KB one. In this process, on bodies made in memory, so the figures are the reading
// alone; CPU time (the work, whatever else the machine runs), the sides taking turns, median of 11
// rounds. `node bench/event-answers.mjs` (after a build) runs these rows alone.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { checkingAnswers } from '../packages/plugin-mcp/dist/transport/answer-bodies.js';
import { alternate, median } from './measure.mjs';
import { formatTable } from './report.mjs';

const ROUNDS = 11;
const encoder = new TextEncoder();

const text = (bytes) => 'x'.repeat(bytes);
const answer = (id, bytes) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: text(bytes) }] },
});
const KINDS = [
  {
    name: 'a progress notification (150 B)',
    count: 10_000,
    message: (i) => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: i, message: `step ${i}` },
    }),
  },
  { name: 'a 1 KB tool result', count: 5_000, message: (i) => answer(i, 1_000) },
  { name: 'a 64 KB tool result', count: 200, message: (i) => answer(i, 64_000) },
];

/** One chunk per event, as a server writes them; each has an id, as a resumable stream's do. */
function chunks(kind) {
  return Array.from({ length: kind.count }, (_, i) =>
    encoder.encode(`id: ${i}\ndata: ${JSON.stringify(kind.message(i))}\n\n`),
  );
}

/** A response whose body gives a chunk per read, as the network does (not all queued at once). */
function response(body) {
  let next = 0;
  const stream = new ReadableStream(
    {
      pull(controller) {
        if (next < body.length) controller.enqueue(body[next++]);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
}

/** Reads the body `fetch` answers with to its end; resolves with the chunks read. */
async function readAlone(fetch) {
  let read = 0;
  for await (const _ of (await fetch()).body) read++;
  return read;
}

/**
 * Reads the body `fetch` answers with as the SDK's Streamable HTTP transport reads the answer to a
 * POST: each event parsed and checked as a JSON-RPC message, and handed on. Resolves with the
 * messages handed on.
 */
async function readByTheSdk(fetch, count) {
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch });
  let read = 0;
  const all = new Promise((resolve) => {
    transport.onmessage = () => {
      if (++read === count) resolve();
    };
  });
  await transport.start();
  await transport.send({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'x' } });
  await all;
  await transport.close();
  return read;
}

const READS = [
  { how: 'read alone', read: readAlone },
  { how: "read by the SDK's Streamable HTTP transport", read: readByTheSdk },
];

export async function eventAnswersCost(signal) {
  const rows = [];
  for (const { how, read } of READS) {
    for (const kind of KINDS) {
      const body = chunks(kind);
      const plain = async () => response(body);
      const perEvent = async (fetch) => {
        const before = process.cpuUsage();
        const count = await read(fetch, kind.count);
        const { user, system } = process.cpuUsage(before);
        if (count !== kind.count) throw new Error(`read ${count} of ${kind.count} events`);
        return ((user + system) * 1e3) / kind.count;
      };
      const sides = [() => perEvent(checkingAnswers(plain)), () => perEvent(plain)];
      // A round of each first, untimed: the code is compiled before it is timed.
      await alternate(sides, 1, signal);
      const [ours, base] = await alternate(sides, ROUNDS, signal);
      rows.push({
        metric: `an event-stream body ${how}, through the answer check (ours) or not (base), per event: ${kind.name}`,
        ours: median(ours),
        base: median(base),
        unit: 'ns',
        goal: { kind: 'info' },
      });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatTable(await eventAnswersCost(AbortSignal.timeout(300_000))));
}
