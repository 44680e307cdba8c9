// Every MCP operation as OpenTelemetry sees it, by its semantic conventions for MCP: a CLIENT span
// per request a client sends (and one per connect), the `mcp.client.operation.duration` and
// `mcp.client.session.duration` histograms. Built on `@opentelemetry/api` alone, which is a no-op
// until a host registers an SDK: until then no operation is made at all (tracingOn), and a request
// pays for two lookups. Loaded with the connection's code, never by importing the plugin.
// What a span may carry is said in EMBEDDING.md ("Tracing"): never a secret, and a tool's arguments
// and result or a resource's URI only when the host opts in (`tracing.content`).

import { ProtocolError } from '@modelcontextprotocol/client';
import {
  type Attributes,
  type Context,
  context,
  createNoopMeter,
  type Histogram,
  type MeterProvider,
  metrics,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import { NotValidMcp } from '../transport/answer-check.js';
import type { McpServerConfig } from '../types.js';
import type { McpTracingOptions } from './options.js';

/** The instrumentation scope's name, as a host's SDK shows where a span came from. */
const SCOPE = '@epoch-agent/plugin-mcp';
/** The conventions' buckets for both histograms, in seconds. */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** An attribute that holds content (opt-in) is cut here: a span is not where a result is kept. */
const CONTENT_CHARS = 16_384;

interface Instruments {
  readonly provider: MeterProvider;
  /** A host's SDK gave the meter: false for the API's no-op one. */
  readonly on: boolean;
  readonly operation: Histogram;
  readonly session: Histogram;
}

let instruments: Instruments | undefined;

/** The histograms of the meter provider registered now: made again only when that changed. */
function histograms(): Instruments {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(SCOPE);
  const advice = { explicitBucketBoundaries: BUCKETS };
  instruments = {
    provider,
    on: meter !== createNoopMeter(),
    operation: meter.createHistogram('mcp.client.operation.duration', {
      unit: 's',
      description: 'The duration of an MCP request, from when it was sent until its answer came.',
      advice,
    }),
    session: meter.createHistogram('mcp.client.session.duration', {
      unit: 's',
      description: 'How long an MCP connection lasted, as the client saw it.',
      advice,
    }),
  };
  return instruments;
}

/** The scope's tracer: the API's proxy, which finds a host's SDK whenever it is registered. */
const tracer = trace.getTracer(SCOPE);
/** What the API's tracer provider hands out while no SDK is registered. */
const NO_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether a host registered an SDK (tracer or meter provider). Without one an operation is
 * nothing at all: a request pays for these two lookups, not for no-op spans and contexts.
 */
export function tracingOn(): boolean {
  const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  return provider.getDelegate?.() !== NO_TRACER_PROVIDER || histograms().on;
}

/** An operation when a host registered an SDK (tracingOn), else none. */
export function operation(parts: OperationParts): McpOperation | undefined {
  return tracingOn() ? new McpOperation(parts) : undefined;
}

/** `send` in `traced`'s context, or as it is when there is no operation. */
export function within<T>(traced: McpOperation | undefined, send: () => T): T {
  return traced === undefined ? send() : traced.run(send);
}

/** Each config's transport attributes, worked out once: a URL is not parsed per request. */
const whereOf = new WeakMap<McpServerConfig, Attributes>();

/** Where a server is, as the conventions' transport attributes say it. */
export function serverAttributes(config: McpServerConfig): Attributes {
  let where = whereOf.get(config);
  if (where === undefined) {
    where = transportAttributes(config);
    whereOf.set(config, where);
  }
  return where;
}

function transportAttributes(config: McpServerConfig): Attributes {
  if (config.transport === 'stdio') {
    return { 'network.transport': 'pipe', 'epoch.mcp.server.name': config.name };
  }
  const attributes: Attributes = {
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'epoch.mcp.server.name': config.name,
  };
  try {
    // The host and port only: a URL's path, query and user part may hold secrets.
    const url = new URL(config.url);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return { ...attributes, 'server.address': url.hostname, 'server.port': port };
  } catch {
    return attributes;
  }
}

/** What a request is about: its method and, where the conventions name one, its target. */
export interface OperationTarget {
  readonly method: string;
  readonly tool?: string | undefined;
  readonly prompt?: string | undefined;
  /** A resource's URI: in an attribute only with `tracing.content`. */
  readonly uri?: string | undefined;
  /** A tool call's arguments: in an attribute only with `tracing.content`. */
  readonly args?: unknown;
}

/** What a span learns of the connection a request went to. */
export interface OperationLink {
  readonly protocolVersion: string;
  /** The Streamable HTTP session (`Mcp-Session-Id`), when there is one. */
  readonly sessionId: string | undefined;
}

export interface OperationParts {
  readonly config: McpServerConfig;
  readonly scrub: Scrubber;
  readonly options: McpTracingOptions;
  readonly target: OperationTarget;
  /** Default: the caller's context. DETACHED for what no caller asked for. */
  readonly parent?: Context;
  /** false for a connect, whose span covers several requests: it gets no request id. */
  readonly request?: boolean;
}

/**
 * One request (or connect) from start to end: its span, unless the host's own tool span stands
 * for it (`tracing.outerToolSpan`), and its duration in the histogram. `run` runs the sending in
 * the span's context, so what goes on the wire carries it (request-meta.ts). end() once.
 */
export class McpOperation {
  readonly #span: Span | undefined;
  /** The span that gets the attributes: ours, or the host's tool span. */
  readonly #annotated: Span;
  readonly #context: Context;
  readonly #started = performance.now();
  readonly #metric: Attributes;
  readonly #scrub: Scrubber;
  readonly #content: boolean;

  constructor({
    config,
    scrub,
    options,
    target,
    parent = context.active(),
    request = true,
  }: OperationParts) {
    this.#scrub = scrub;
    const { method, tool, prompt } = target;
    // A tool call's result is content; a list's or a read's is not the conventions' attribute.
    this.#content = options.content === true && tool !== undefined;
    const attributes: Attributes = {
      'mcp.method.name': method,
      ...serverAttributes(config),
      ...(tool === undefined
        ? {}
        : { 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' }),
      ...(prompt === undefined ? {} : { 'gen_ai.prompt.name': prompt }),
    };
    const { 'epoch.mcp.server.name': _name, ...measured } = attributes;
    this.#metric = measured;
    const outer =
      tool !== undefined && options.outerToolSpan === true ? trace.getSpan(parent) : undefined;
    if (outer?.isRecording() === true) {
      this.#annotated = outer;
      this.#context = parent;
    } else {
      const name = [method, tool ?? prompt].filter((part) => part !== undefined).join(' ');
      this.#span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
      this.#annotated = this.#span;
      this.#context = trace.setSpan(parent, this.#span);
    }
    if (this.#span === undefined) this.#annotated.setAttributes(attributes);
    if (request) awaitingId.add(this.#annotated);
    if (this.#content && target.args !== undefined) {
      this.#setContent('gen_ai.tool.call.arguments', target.args);
    }
    if (options.content === true && target.uri !== undefined) {
      this.#annotated.setAttribute('mcp.resource.uri', scrub(target.uri));
    }
  }

  /** `send` in this operation's context: the requests it makes carry its trace context. */
  run<T>(send: () => T): T {
    return context.with(this.#context, send);
  }

  /** The connection the request went to: its protocol revision and session. */
  on(link: OperationLink): void {
    const attributes: Attributes = { 'mcp.protocol.version': link.protocolVersion };
    this.#metric['mcp.protocol.version'] = link.protocolVersion;
    if (link.sessionId !== undefined) attributes['mcp.session.id'] = link.sessionId;
    this.#annotated.setAttributes(attributes);
  }

  /** A connect's span is named after its handshake, known once it is made. */
  named(method: string): void {
    this.#span?.updateName(method);
    this.#span?.setAttribute('mcp.method.name', method);
    this.#metric['mcp.method.name'] = method;
  }

  /** Ends it: `error` failed it (by its code), a tool result with isError is a `tool_error`. */
  end(outcome: { readonly error: unknown } | { readonly result: unknown }): void {
    const seconds = (performance.now() - this.#started) / 1000;
    const failure =
      'error' in outcome
        ? errorOf(outcome.error)
        : toolError(outcome.result)
          ? TOOL_ERROR
          : undefined;
    if (failure !== undefined) {
      this.#metric['error.type'] = failure.type;
      const attributes: Attributes = { 'error.type': failure.type };
      if (failure.rpcCode !== undefined) {
        this.#metric['rpc.response.status_code'] = failure.rpcCode;
        attributes['rpc.response.status_code'] = failure.rpcCode;
      }
      this.#annotated.setAttributes(attributes);
      // The code only: a server's words may repeat what it was sent.
      this.#span?.setStatus({ code: SpanStatusCode.ERROR, message: failure.type });
    } else if (this.#content && 'result' in outcome && outcome.result !== undefined) {
      this.#setContent('gen_ai.tool.call.result', outcome.result);
    }
    this.#span?.end();
    histograms().operation.record(seconds, this.#metric);
  }

  #setContent(key: string, value: unknown): void {
    let text: string;
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
    const shown = this.#scrub(text);
    this.#annotated.setAttribute(
      key,
      shown.length > CONTENT_CHARS ? `${shown.slice(0, CONTENT_CHARS)}…` : shown,
    );
  }
}

/** Request spans not told their JSON-RPC id yet: the first request each sends gives it. */
const awaitingId = new WeakSet<Span>();

/**
 * A request goes out (request-meta.ts) in the context of the operation that sends it: its span
 * gets `jsonrpc.request.id`, the id of the first request it sent (a retry after input_required
 * or a forgotten session sends another).
 */
export function requestSent(id: string | number): void {
  const span = trace.getActiveSpan();
  if (span === undefined || !awaitingId.has(span)) return;
  awaitingId.delete(span);
  span.setAttribute('jsonrpc.request.id', String(id));
}

/** A client's own upkeep (a list changed, a keepalive): no caller's trace is its parent. */
export const DETACHED: Context = ROOT_CONTEXT;

interface Failure {
  readonly type: string;
  readonly rpcCode?: string;
}

const TOOL_ERROR: Failure = { type: 'tool_error' };

/**
 * A failure's `error.type`: the JSON-RPC error code a server answered with (as the conventions
 * ask), else the McpError's code (`request_timeout`, `aborted`, `connection_closed`, ...). An
 * answer not valid MCP comes as an error answer the server never sent (transport/answer-check.ts).
 */
function errorOf(error: unknown): Failure {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof ProtocolError && !(e.data instanceof NotValidMcp)) {
      return { type: String(e.code), rpcCode: String(e.code) };
    }
  }
  return { type: error instanceof McpError ? error.code : '_OTHER' };
}

function toolError(result: unknown): boolean {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { readonly isError?: unknown }).isError === true
  );
}

/** A connection's life, for `mcp.client.session.duration`; ended() once, when it closes or is lost. */
export class SessionClock {
  readonly #started = performance.now();
  readonly #attributes: Attributes;
  #ended = false;

  constructor(config: McpServerConfig, protocolVersion: string) {
    const { 'epoch.mcp.server.name': _name, ...where } = serverAttributes(config);
    this.#attributes = { ...where, 'mcp.protocol.version': protocolVersion };
  }

  /** `lost`: how it ended without being closed (`closed`, `stream`, ...), its `error.type`. */
  ended(lost?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    const seconds = (performance.now() - this.#started) / 1000;
    histograms().session.record(
      seconds,
      lost === undefined ? this.#attributes : { ...this.#attributes, 'error.type': lost },
    );
  }
}
