// A host's OpenTelemetry set-up for tests, as EMBEDDING.md's "Tracing" has a host write it: the
// SDK's tracer and meter providers registered globally with the context manager and W3C
// propagator, spans kept in memory and metrics read on demand.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** Reads the metrics when a test asks (collect()): what was recorded since the last read. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface Telemetry {
  readonly spans: () => ReadableSpan[];
  /** The data points of histogram `name` recorded since the last reset(). */
  readonly points: (name: string) => Promise<DataPoint<Histogram>[]>;
  /** Forgets the spans and the metrics recorded so far. */
  readonly reset: () => Promise<void>;
  readonly shutdown: () => Promise<void>;
}

export function registerTelemetry(): Telemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  /** What the reads since the last reset() gave, by histogram. */
  const kept = new Map<string, DataPoint<Histogram>[]>();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    points: async (name) => {
      const { resourceMetrics } = await reader.collect();
      for (const { descriptor, dataPoints } of resourceMetrics.scopeMetrics.flatMap(
        ({ metrics: each }) => each,
      )) {
        kept.set(descriptor.name, [
          ...(kept.get(descriptor.name) ?? []),
          ...(dataPoints as DataPoint<Histogram>[]),
        ]);
      }
      return kept.get(name) ?? [];
    },
    reset: async () => {
      exporter.reset();
      await reader.collect();
      kept.clear();
    },
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}
