// One server's request path: a request goes through the call queue when the server takes one call
// at a time, to the live connection (or the one a connect is making: life.ts decides), within its
// `timeout` and the caller's signal; a Streamable HTTP session the server forgot gets a new one and
// the request once more; a 401 is a needed login; any failure becomes an McpError with a code. A
// request a server may ask the person a question during (tools/call, resources/read, prompts/get)
// is a QuestionTarget while it runs: the question names it, and its `timeout` (request-limits.ts)
// stands still while a person is asked.
import { type Logger, messageOf } from '@epoch-agent/infra';
import type { ToolProgress } from '@epoch-agent/protocol';
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { QuestionTarget } from '../elicitation/ask.js';
import type { AskingRequest } from '../elicitation/questions.js';
import { nobodyCouldAnswer } from '../errors/input-required.js';
import { McpError } from '../errors/mcp-error.js';
import {
  abortedBeforeSending,
  type RequestTarget,
  sessionExpiredAgain,
  unavailable,
  waitUnlessAborted,
} from '../errors/unavailable.js';
import type { ServerLife } from './life.js';
import type { Connection } from './link.js';
import type { ListItem, ListMethod } from './paginate.js';
import { LimitedQuestionTarget, RequestLimits } from './request-limits.js';
import {
  buildRequestOptions,
  callRequestOptions,
  limitedRequestOptions,
  progressTo,
  remoteUrl,
  TIMED_BY_US_MS,
} from './request-options.js';
import type { QueueTurn } from './serial-queue.js';
import type { Server } from './server.js';
import { loadedConnectionCode, withConnectionCode } from './start.js';
import type { OperationTarget } from './tracing.js';

export interface RequestSpec<T> {
  /** The raw tool name, for tools/call. */
  readonly tool?: string;
  readonly serial?: boolean;
  /** The capability the server must have declared; without it nothing is sent. */
  readonly capability?: 'resources' | 'prompts';
  /** The answer when the capability is missing; without it, `not_supported` is thrown. */
  readonly otherwise?: () => T;
  /** A tools/call: progress restarts `timeout`, up to `maxTotalTimeoutMs` (request-limits.ts). */
  readonly progress?: { readonly onProgress: ((progress: ToolProgress) => void) | undefined };
  /** What its span says beyond method and tool (tracing.ts): a prompt's name, opt-in content. */
  readonly traced?: Pick<OperationTarget, 'prompt' | 'uri' | 'args'>;
  /** Asked by the client itself (a changed tool list), not by a caller: no caller's trace. */
  readonly detached?: boolean;
}

export type Send<T> = (connection: Connection, options: RequestOptions) => Promise<T>;

/**
 * Sends a request a server may ask a question during, which `target` stands for; `turn`: its turn
 * in the queue of a server that takes one call at a time (a call made a task gives it up).
 */
export type SendAsking<T> = (
  connection: Connection,
  options: RequestOptions,
  target: QuestionTarget,
  turn: QueueTurn | undefined,
) => Promise<T>;

/** What a request sends: plainly, or as one a server may ask a question during. */
type How<T> =
  | { readonly asking?: undefined; readonly send: Send<T> }
  | { readonly asking: AskingRequest; readonly send: SendAsking<T> };

/** One request as it is sent, made when its turn comes: its limits, and what a question names. */
interface Sending<T> {
  readonly send: Send<T>;
  readonly limits?: RequestLimits;
  readonly target?: QuestionTarget;
}

export class Requests {
  readonly #server: Server;
  readonly #life: ServerLife;

  constructor({ server, life }: { readonly server: Server; readonly life: ServerLife }) {
    this.#server = server;
    this.#life = life;
  }

  get #name(): string {
    return this.#server.config.name;
  }

  /**
   * One request, through the queue when `spec.serial`, on the live connection (or the one a start
   * or reconnect is making). A call is the hot path of a turn: when the connection is live nothing
   * here waits, and no promise of ours stands between the caller and the request's own.
   */
  request<T>(
    method: string,
    signal: AbortSignal | undefined,
    send: Send<T>,
    spec: RequestSpec<T> = {},
  ): Promise<T> {
    return this.#request(method, signal, { send }, spec);
  }

  /**
   * A request the server may ask the person a question during (tools/call, resources/read,
   * prompts/get): `asking` is what the question names, and its `timeout` is ours
   * (request-limits.ts), standing still while a person is asked.
   */
  asking<T>(
    method: string,
    signal: AbortSignal | undefined,
    asking: AskingRequest,
    send: SendAsking<T>,
    spec: RequestSpec<T> = {},
  ): Promise<T> {
    return this.#request(method, signal, { asking, send }, spec);
  }

  #request<T>(
    method: string,
    signal: AbortSignal | undefined,
    how: How<T>,
    spec: RequestSpec<T>,
  ): Promise<T> {
    const { config, scrub, slot, queue } = this.#server;
    const target: RequestTarget = { server: this.#name, method, tool: spec.tool };
    // Not the queue's "waited for an earlier call": there may be none, and nothing waited at all.
    if (signal?.aborted) return Promise.reject(abortedBeforeSending(target, signal.reason));
    return withConnectionCode((code) => {
      // Its span (or the host's tool span) from here to its end; without a host's SDK nothing is
      // recorded, and nothing of it is made on the call's path.
      const operation = code.tracingOn()
        ? code.operation({
            config,
            scrub,
            options: this.#server.settings.tracing,
            target: { method, tool: spec.tool, ...spec.traced },
            ...(spec.detached === true ? { parent: code.DETACHED } : {}),
          })
        : undefined;
      let sent = false;
      /** The connection it went to: how that ended, when it did, is what the failure says. */
      let sentOn: Connection | undefined;
      let made: Sending<T> | undefined;
      const sendOn = (
        connection: Connection,
        sendSignal: AbortSignal | undefined,
        { send, limits, target: asked }: Sending<T>,
      ): Promise<T> => {
        if (spec.capability !== undefined && !connection.info[spec.capability]) {
          if (spec.otherwise !== undefined) return Promise.resolve(spec.otherwise());
          return Promise.reject(
            new McpError(
              'not_supported',
              `MCP server "${this.#name}" does not offer ${spec.capability} (it did not declare the capability), so ${method} was not sent.`,
              { server: this.#name },
            ),
          );
        }
        sent = true;
        sentOn = connection;
        operation?.on({
          protocolVersion: connection.info.protocol.version,
          sessionId: connection.handle.transport.sessionId,
        });
        limits?.start();
        const progress = spec.progress;
        // A tools/call the connection sends itself (direct-calls.ts) never reads the signal.
        const direct =
          spec.tool !== undefined && method === 'tools/call' && connection.direct(spec.tool);
        // Ours when a person may be asked during it: the SDK's timer could not stand still.
        const options = (timeoutMs: number): RequestOptions => {
          const ms = asked === undefined ? timeoutMs : TIMED_BY_US_MS;
          if (limits !== undefined) {
            const onprogress =
              progress === undefined ? undefined : progressTo(limits, progress.onProgress);
            return limitedRequestOptions(ms, limits, onprogress, direct);
          }
          return progress === undefined
            ? buildRequestOptions(ms, sendSignal)
            : callRequestOptions(ms, sendSignal, progress.onProgress);
        };
        const stop = limits ?? sendSignal;
        return operation === undefined
          ? this.#send(connection, target, stop, send, options)
          : code.within(operation, () => this.#send(connection, target, stop, send, options));
      };
      const run = (turn?: QueueTurn): Promise<T> => {
        if (signal?.aborted) return Promise.reject(signal.reason);
        // Counted from the call's turn in the queue, not from the wait before it.
        const now = sendingOf(
          how,
          signal,
          {
            totalMs: spec.progress === undefined ? undefined : config.maxTotalTimeoutMs,
            timeoutMs: config.timeoutMs,
          },
          turn,
        );
        made = now;
        // In the queue, not before it: a call that waited goes to the connection live by then.
        const live = slot.live;
        // The limits' signal is made only where it is read (request-limits.ts).
        if (live !== undefined)
          return sendOn(live, now.limits === undefined ? signal : undefined, now);
        const sendSignal = now.limits?.signal ?? signal;
        return this.#life
          .connectionFor(target, sendSignal)
          .then((next) => sendOn(next, sendSignal, now));
      };
      const sending =
        operation === undefined
          ? spec.serial
            ? queue.run(run, signal)
            : run(undefined)
          : code.within(operation, () => (spec.serial ? queue.run(run, signal) : run(undefined)));
      return sending.then(
        (answer) => {
          made?.limits?.end();
          operation?.end({ result: answer });
          return answer;
        },
        (error: unknown) => {
          made?.limits?.end();
          const failed = code.requestError(error, {
            server: this.#name,
            method,
            tool: spec.tool,
            timeoutMs: config.timeoutMs,
            ...(made?.limits?.passed === 'total' ? { totalLimitMs: config.maxTotalTimeoutMs } : {}),
            signal,
            sent,
            scrub,
            url: remoteUrl(config),
            rootsDeclared: this.#server.settings.roots !== undefined,
            elicitationDeclared: this.#server.settings.elicit !== undefined,
            questionsAsked: (made?.target?.asked ?? 0) > 0,
            lost: sentOn?.lost,
          });
          const asked = made?.target;
          const thrown = asked === undefined ? failed : nobodyCouldAnswer(failed, asked.replies);
          operation?.end({ error: thrown });
          throw thrown;
        },
      );
    });
  }

  /**
   * Every page of `method`, a list the server offers under `capability`: empty (and nothing sent)
   * when the capability is missing. Method-not-found is empty too: some servers declare a
   * capability without implementing all of it, and "there are none" is closer to the truth than
   * a failure.
   */
  async listAll<M extends Exclude<ListMethod, 'tools/list'>>(
    method: M,
    capability: 'resources' | 'prompts',
    signal: AbortSignal | undefined,
  ): Promise<ListItem[M][]> {
    try {
      return await this.request<ListItem[M][]>(
        method,
        signal,
        (connection, options) => connection.list(method, options, this.#listOwner()),
        { capability, otherwise: () => [] },
      );
    } catch (error) {
      if (error instanceof McpError && loadedConnectionCode().isMethodNotFound(error.cause)) {
        return [];
      }
      throw error;
    }
  }

  /** After notifications/tools/list_changed: a new `connected` state carries the new tool list. */
  async refreshTools(connection: Connection): Promise<void> {
    if (this.#server.slot.live !== connection) return;
    try {
      const tools = await this.request(
        'tools/list',
        undefined,
        (live, options) => live.listTools(options, this.#listOwner()),
        { detached: true },
      );
      this.#life.setTools(connection, tools);
    } catch (error) {
      this.#server.settings.logger.warn(
        `MCP server "${this.#name}" announced a new tool list, but asking for it failed: ${messageOf(error)}. Its previous tools stay in use.`,
        { server: this.#name },
      );
    }
  }

  /**
   * Sends on `connection`. A Streamable HTTP server that forgot the session (404) gets a new one
   * and the request once more, with what is left of its timeout; a 401 means `needsLogin`.
   */
  #send<T>(
    connection: Connection,
    target: RequestTarget,
    stop: RequestLimits | AbortSignal | undefined,
    send: Send<T>,
    options: (timeoutMs: number) => RequestOptions,
  ): Promise<T> {
    const started = Date.now();
    return connection
      .run(() => send(connection, options(this.#server.config.timeoutMs)))
      .catch((error: unknown) => {
        const failure = connection.failure(error);
        if (failure === 'refused') throw this.#life.refused(connection, error, target);
        if (failure !== 'forgotten') throw error;
        // The limits' signal, made only now (request-limits.ts).
        const signal = stop instanceof RequestLimits ? stop.signal : stop;
        return this.#sendAgain(connection, target, signal, send, options, started);
      });
  }

  async #sendAgain<T>(
    forgotten: Connection,
    target: RequestTarget,
    signal: AbortSignal | undefined,
    send: Send<T>,
    options: (timeoutMs: number) => RequestOptions,
    started: number,
  ): Promise<T> {
    const next = await this.#successor(forgotten, target, signal);
    const left = Math.max(1, this.#server.config.timeoutMs - (Date.now() - started));
    try {
      return await next.run(() => send(next, options(left)));
    } catch (error) {
      const failure = next.failure(error);
      if (failure === 'refused') throw this.#life.refused(next, error, target);
      if (failure === 'forgotten') throw sessionExpiredAgain(target, error);
      throw error;
    }
  }

  /**
   * The server forgot `old`'s Streamable HTTP session (404): the connection that takes over from
   * it (a new initialize), waited for as a connect in progress is.
   */
  #successor(
    old: Connection,
    target: RequestTarget,
    signal: AbortSignal | undefined,
  ): Promise<Connection> {
    this.#server.settings.logger.info(
      `MCP server "${this.#name}" no longer knows our session (HTTP 404); opening a new one and sending ${target.method} again.`,
      { server: this.#name },
    );
    const next = this.#life.replace(old).catch(() => {
      throw unavailable(this.#server.state.current, target);
    });
    return waitUnlessAborted(next, signal, target);
  }

  #listOwner(): { readonly server: string; readonly logger: Logger } {
    return { server: this.#name, logger: this.#server.settings.logger };
  }
}

/**
 * A request as it is sent: with a tools/call's total limit (`totalMs`), and for one a person may
 * be asked during, its `timeout` on our timer and the QuestionTarget a question of it names.
 */
function sendingOf<T>(
  how: How<T>,
  caller: AbortSignal | undefined,
  { totalMs, timeoutMs }: { readonly totalMs: number | undefined; readonly timeoutMs: number },
  turn: QueueTurn | undefined,
): Sending<T> {
  if (how.asking === undefined) {
    const limits = totalMs === undefined ? undefined : new RequestLimits({ caller, totalMs });
    return limits === undefined ? { send: how.send } : { send: how.send, limits };
  }
  const limits = new RequestLimits({ caller, totalMs, timeoutMs });
  const target = new LimitedQuestionTarget(how.asking, limits);
  const send = how.send;
  return {
    send: (connection, options) => send(connection, options, target, turn),
    limits,
    target,
  };
}
