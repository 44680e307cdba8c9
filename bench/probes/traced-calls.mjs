// Run in a fresh process: `echo` tool calls of McpClient over stdio to the hand-written echo
// server, with no OpenTelemetry SDK (`off`: the API's no-ops, as a host that traces nothing has
// them) or with one registered as a host registers it (`on`: tracer and meter providers, the
// context manager and the W3C propagator; spans handed to a processor that drops them, so the
// figure is the client's cost, not an exporter's). Prints the median and p99 of the timed calls, in ms.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { latencies, median, percentile } from '../measure.mjs';
import { clientEcho, ourClient } from '../sides.mjs';

const [mode, server, warmup, count] = process.argv.slice(2);
if (mode === 'on') {
  const dropped = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  class Kept extends MetricReader {
    async onForceFlush() {}
    async onShutdown() {}
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropped)] }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Kept()] }));
}
const client = await ourClient('bench', {
  transport: 'stdio',
  command: process.execPath,
  args: [server],
});
const signal = new AbortController().signal;
const call = clientEcho(client, signal);
await latencies(call, Number(warmup));
const samples = await latencies(call, Number(count));
await client.close();
console.log(JSON.stringify({ median: median(samples), p99: percentile(samples, 99) }));
