// tools/call on a stdio connection of the 2025 protocol era, sent as plain JSON-RPC on the connection's
// transport instead of through the SDK's request funnel. A call is what a turn repeats, and over a
// pipe the SDK's funnel (era codecs, every incoming message checked against its zod schemas twice
// before it is routed, a chain of promises per answer) cost more than everything else the client
// does per call; `npm run bench` compares the two. Everything else stays the SDK's: the handshake,
// every other request, and every message from the server that is not the answer to one of these
// calls. Only those answers, and the progress reports for them (by their progressToken, the call's
// id), are taken out of the transport's stream before the SDK sees it.
// Not over SSE or HTTP, where a call's time is the network's and the SDK's transports tie requests
// to their streams; not in the 2026 era, whose requests carry an envelope and whose results may ask
// for input first.
//
// What a call does is what the SDK's request does: a timeout or the caller's abort sends
// notifications/cancelled and rejects, `onprogress` gets each progress report and
// `resetTimeoutOnProgress` has each one start the timeout again, an error answer is the SDK's ProtocolError, a closed
// connection rejects with ConnectionClosed. So errors/request.ts reads either the same way.
import {
  type JSONRPCMessage,
  type Progress,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import { checkToolCallResult, type ToolCallResult } from '../tools/result.js';
import { InFlight } from './in-flight.js';
import { type LimitedRequestOptions, TIMED_BY_US_MS } from './request-options.js';

/**
 * Our ids count up from here: far above the SDK's own, which count from 0 (it would take it a
 * billion requests to get here), and still a 32-bit integer for servers that read ids as one.
 */
const FIRST_ID = 1_000_000_000;

export class DirectToolCalls {
  readonly #transport: Transport;
  readonly #pending = new InFlight<number, DirectCall>();
  #nextId = FIRST_ID;
  #closed = false;

  /** Takes the answers to its calls out of `transport`'s stream; call after the SDK connected it. */
  constructor(transport: Transport) {
    this.#transport = transport;
    const sdkMessage = transport.onmessage;
    const sdkClose = transport.onclose;
    transport.onmessage = (message, extra) => {
      if (!this.#answer(message)) sdkMessage?.(message, extra);
    };
    transport.onclose = () => {
      this.#close();
      sdkClose?.();
    };
  }

  /**
   * `options.limits` (request-limits.ts), when given, end the call early in place of
   * `options.signal`, which is then never read: its AbortSignal is made only for the SDK's path.
   */
  call(
    name: string,
    args: Record<string, unknown>,
    options: LimitedRequestOptions,
  ): Promise<ToolCallResult> {
    if (this.#closed) return Promise.reject(connectionClosed());
    const { limits } = options;
    const signal = limits === undefined ? options.signal : undefined;
    const early = limits ?? signal;
    if (early?.aborted) return Promise.reject(stopped(early.reason));
    const id = this.#nextId++;
    const call = new DirectCall(this, id, options, signal);
    const promise = new Promise<ToolCallResult>((resolve, reject) => {
      call.resolve = resolve;
      call.reject = reject;
    });
    this.#pending.set(id, call);
    if (limits !== undefined) limits.watch(call);
    else signal?.addEventListener('abort', call, { once: true });
    // The call's id is its progressToken: unique among the calls in flight, and the lookup is one.
    const params =
      options.onprogress === undefined
        ? { name, arguments: args }
        : { name, arguments: args, _meta: { progressToken: id } };
    this.#transport
      .send({ jsonrpc: '2.0', id, method: 'tools/call', params })
      .catch((error: unknown) => {
        if (this.settle(id)) call.reject(error);
      });
    return promise;
  }

  /** Tells the server to cancel call `id`, which is over either way. */
  cancel(id: number, reason: unknown): void {
    this.#transport
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: String(reason) },
      })
      // The call is over either way; a connection too broken to take this says so itself.
      .catch(() => {});
  }

  /**
   * Whether `message` is the answer to one of our calls (also one given up on: it is dropped), or a
   * progress report for one.
   */
  #answer(message: JSONRPCMessage): boolean {
    if ('method' in message && message.method === 'notifications/progress') {
      return this.#progress(message.params);
    }
    if (!('id' in message) || typeof message.id !== 'number' || message.id < FIRST_ID) return false;
    if ('method' in message) return false;
    const pending = this.#pending.get(message.id);
    if (pending === undefined || !this.settle(message.id)) return true;
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      pending.reject(ProtocolError.fromError(code, text, data));
      return true;
    }
    const checked = checkToolCallResult('result' in message ? message.result : undefined);
    if ('value' in checked) pending.resolve(checked.value);
    else {
      pending.reject(
        new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${checked.issue}`),
      );
    }
    return true;
  }

  /** A progress report whose token is one of our ids is ours; one for a call given up on is dropped. */
  #progress(params: unknown): boolean {
    const token = (params as { readonly progressToken?: unknown } | undefined)?.progressToken;
    if (typeof token !== 'number' || token < FIRST_ID) return false;
    const progress = (params as { readonly progress?: unknown }).progress;
    if (typeof progress !== 'number') return true;
    const { total, message } = params as { readonly total?: unknown; readonly message?: unknown };
    this.#pending.get(token)?.progress({
      progress,
      ...(typeof total === 'number' ? { total } : {}),
      ...(typeof message === 'string' ? { message } : {}),
    });
    return true;
  }

  /** Ends call `id` (timer, listener); false when it had already ended. */
  settle(id: number): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined) return false;
    this.#pending.delete(id);
    pending.done();
    return true;
  }

  #close(): void {
    this.#closed = true;
    const pending = this.#pending.takeAll();
    for (const call of pending) {
      call.done();
      call.reject(connectionClosed());
    }
  }
}

/**
 * One call in flight: how it settles, its progress reports, and what ends it early (its own timer
 * for a `timeout` of the SDK's kind; the caller's signal, as its listener, or its limits). One
 * object per call, with no closure of its own.
 */
class DirectCall {
  resolve: (result: ToolCallResult) => void = noop;
  reject: (error: unknown) => void = noop;
  readonly #calls: DirectToolCalls;
  readonly #id: number;
  readonly #options: LimitedRequestOptions;
  readonly #signal: AbortSignal | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    calls: DirectToolCalls,
    id: number,
    options: LimitedRequestOptions,
    signal: AbortSignal | undefined,
  ) {
    this.#calls = calls;
    this.#id = id;
    this.#options = options;
    this.#signal = signal;
    // A timeout of ours (request-limits.ts) ends the call through its limits: no timer here.
    const { timeout } = options;
    if (timeout !== undefined && timeout < TIMED_BY_US_MS) this.#timer = this.#later(timeout);
  }

  /** A progress report for this call: to the caller, and the timeout starts again if asked. */
  progress(params: Progress): void {
    const { timeout, resetTimeoutOnProgress, onprogress } = this.#options;
    if (resetTimeoutOnProgress === true && this.#timer !== undefined && timeout !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = this.#later(timeout);
    }
    onprogress?.(params);
  }

  /** The caller's signal aborted (the call is its listener). */
  handleEvent(): void {
    this.stop(this.#signal?.reason);
  }

  /** Ended early: the caller's stop, or a limit passing. */
  stop(reason: unknown): void {
    this.#cancel(reason, stopped(reason));
  }

  /** Stops the timer and the abort listener. */
  done(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this);
  }

  #later(timeout: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      const error = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout });
      this.#cancel(error, error);
    }, timeout);
  }

  #cancel(reason: unknown, error: unknown): void {
    if (!this.#calls.settle(this.#id)) return;
    this.#calls.cancel(this.#id, reason);
    this.reject(error);
  }
}

function noop(): void {}

function connectionClosed(): SdkError {
  return new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
}

/** What the SDK rejects a stopped request with, so that both paths read the same. */
function stopped(reason: unknown): SdkError {
  return reason instanceof SdkError
    ? reason
    : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
