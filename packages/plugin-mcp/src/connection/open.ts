// Opening one link to a server within connect_timeout: preflight, spawn or connect, the handshake
// (from the era verdict remembered, or with a probe), on 2026-07-28 the stream list changes come by
// (list-changes.ts: waited for briefly, never required), the first tools/list; one more open when
// the era met was wrong. What a failed open means is open-failure.ts's.

import { credentials, type Logger, messageOf } from '@epoch-agent/infra';
import {
  Client,
  type PriorDiscovery,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/client';
import { ConnectionQuestions } from '../elicitation/questions.js';
import { requestError } from '../errors/request.js';
import type { McpTransportHandle } from '../transport/handle.js';
import { MessageTooLongError } from '../transport/message-lines.js';
import { DEFAULT_LOG_LEVEL } from '../types.js';
import {
  type AttemptOutcome,
  type AttemptParts,
  type StartedAhead,
  transportOf,
} from './attempt.js';
import { readBadCacheHintsAsNone } from './cache-hints.js';
import { serverCapabilities } from './capabilities.js';
import { CLIENT_INFO, clientOptions } from './client-options.js';
import { Connection } from './link.js';
import { LISTEN_ACK_WAIT_MS, onToolsListChanged, ToolsSubscription } from './list-changes.js';
import { CLOSED, failedOpen, type Opened, TIMED_OUT } from './open-failure.js';
import { preflight } from './preflight.js';
import type { McpEraVerdict, McpProtocolEra } from './protocol.js';
import { stampRequests } from './request-meta.js';
import { remoteUrl } from './request-options.js';
import { rootsOnTheWire } from './roots.js';
import { serverIdentity } from './server-identity.js';
import { ServerLog } from './server-log.js';
import { listTools, markedTools, type ToolList } from './tool-list.js';
import { DETACHED, operation, SessionClock, within } from './tracing.js';

/** What a first connect meets a server with when it is known to be of the 2025 era. */
const LEGACY: PriorDiscovery = { kind: 'legacy' };

/**
 * Opens one connection within connect_timeout. Never rejects: a failure is an outcome. `ahead`:
 * the stdio server its first open uses, spawned while the SDK loaded (start.ts).
 *
 * It opens from the remembered era verdict, or with a probe when there is none. A server that
 * refused the remembered verdict (it answered, and not with a 401) may have changed era: one more
 * open, with a probe. A stdio server that exited when probed is of the 2025 era (servers of
 * some SDKs end on any request before initialize): it is started once more, with initialize.
 */
export async function openConnection(
  options: AttemptParts,
  ahead?: StartedAhead,
): Promise<AttemptOutcome> {
  const { config, scrub, settings, remembered } = options;
  const verdict = remembered?.memory?.verdict;
  // The connect's span, named after its handshake: the requests it sends carry its trace context.
  const connect = operation({
    config,
    scrub,
    options: settings.tracing,
    target: {
      method: handshake(verdict?.era ?? (config.transport === 'sse' ? 'legacy' : 'modern')),
    },
    request: false,
  });
  const outcome = await within(connect, () => openWithRetry(options, ahead));
  if (connect === undefined) return outcome;
  if (!outcome.ok) {
    connect.end({ error: outcome.error });
    return outcome;
  }
  const { protocol } = outcome.connection.info;
  connect.named(handshake(protocol.era));
  connect.on({
    protocolVersion: protocol.version,
    sessionId: outcome.connection.handle.transport.sessionId,
  });
  connect.end({ result: undefined });
  return outcome;
}

/** The request a connect of that era opens with (2026-07-28: remembered, maybe not even sent). */
function handshake(era: McpProtocolEra): string {
  return era === 'modern' ? 'server/discover' : 'initialize';
}

async function openWithRetry(
  options: AttemptParts,
  ahead: StartedAhead | undefined,
): Promise<AttemptOutcome> {
  // One connect_timeout for the open and its one more: a second try spends what the first left.
  const deadline = (ahead?.at ?? Date.now()) + options.config.connectTimeoutMs;
  const verdict = options.remembered?.memory?.verdict;
  const prior = verdict === undefined ? undefined : priorDiscovery(verdict);
  const first = await openOnce(options, prior, deadline, ahead?.handle);
  const { outcome } = first;
  if (outcome.ok || options.signal.aborted) return outcome;
  const { logger } = options.settings;
  const server = options.config.name;
  if (verdict === undefined) {
    if (!first.exitedWhileProbing) return outcome;
    logger.info(
      `MCP server "${server}" exited when asked server/discover before initialize, as some 2025-era servers do; starting it again with initialize.`,
      { server },
    );
    return (await openOnce(options, LEGACY, deadline)).outcome;
  }
  if (!first.verdictRefused) return outcome;
  logger.info(
    `MCP server "${server}": connecting as it was met last time failed (${outcome.error.message}); asking it which protocol it speaks now.`,
    { server },
  );
  return (await openOnce({ ...options, remembered: undefined }, undefined, deadline)).outcome;
}

/**
 * One open, ended at `deadline` (Date.now() milliseconds); `prior` skips the probe (a verdict),
 * none probes with server/discover. `started`: its transport, already made (and spawning).
 */
async function openOnce(
  options: AttemptParts,
  prior: PriorDiscovery | undefined,
  deadline: number,
  started?: McpTransportHandle,
): Promise<Opened> {
  const { config, scrub } = options;
  const { logger } = options.settings;
  const opening = new AbortController();
  const onClose = (): void => opening.abort(CLOSED);
  if (options.signal.aborted) onClose();
  options.signal.addEventListener('abort', onClose, { once: true });
  // One deadline for preflight, spawn, initialize and the first tools/list: each step spends what
  // the previous ones left, none starts a fresh connect_timeout.
  const timer = setTimeout(() => opening.abort(TIMED_OUT), Math.max(0, deadline - Date.now()));
  let handle = started;
  let listening: ToolsSubscription | undefined;
  let tooLong: MessageTooLongError | undefined;
  let exited = false;
  let handshaken = false;
  try {
    // A stdio server's checks only explain a connect that failed (below).
    if (config.transport !== 'stdio') await preflight(config, opening.signal);
    handle ??= await transportOf(options);
    const logLevel = config.logLevel ?? DEFAULT_LOG_LEVEL;
    stampRequests(handle.transport, logLevel);
    let opened: Connection | undefined;
    const { roots } = options.settings;
    // No `listChanged` option: on a 2026-07-28 connection the SDK would wait for the
    // subscriptions/listen acknowledgement inside connect(), and a server that never gives it could
    // never connect. list-changes.ts listens instead, off the connect's critical path.
    const questions = new ConnectionQuestions({
      server: config.name,
      source: options.source,
      setting: options.elicitation,
      elicit: options.settings.elicit,
      logger,
      learn: (secrets) => scrub.learn(credentials(secrets)),
    });
    const sdk = new Client(CLIENT_INFO, {
      ...clientOptions(config, {
        roots: roots !== undefined,
        elicit: questions.canAsk,
        tasks: true,
      }),
      // The SDK would find no handler to fulfil an input_required result with: input-required.ts
      // answers what can be answered without one.
      inputRequired: { autoFulfill: false },
    });
    // From the handshake on: a server may log while it starts.
    const log = new ServerLog(config.name, logger);
    sdk.setNotificationHandler('notifications/message', ({ params }) => {
      log.write(params);
      options.output.log(params, scrub);
    });
    // Asked afresh each time: a host's function may give other roots than at the connect.
    if (roots !== undefined) {
      sdk.setRequestHandler('roots/list', async () => ({ roots: await rootsOnTheWire(roots) }));
    }
    answerQuestions(sdk, questions, logger, config.name);
    // The transport stops a server whose line is too long; the connect then fails as "closed", so
    // the reason is kept from its report (the connection installs its own handler once open).
    sdk.onerror = (error) => {
      if (error instanceof MessageTooLongError) tooLong ??= error;
    };
    // Chained by the SDK's own close handling: did the process end before any answer came?
    handle.transport.onclose = () => {
      exited = true;
    };
    // The handshake is connect_timeout's alone (the README's mcp.json table: start + handshake);
    // `timeout` is per request, so it bounds each page of the first tools/list inside the same deadline.
    await untilAborted(
      sdk.connect(handle.transport, {
        timeout: config.connectTimeoutMs,
        signal: opening.signal,
        ...(prior === undefined ? {} : { prior }),
      }),
      opening.signal,
    );
    handshaken = true;
    const capabilities = sdk.getServerCapabilities() ?? {};
    const era = sdk.getProtocolEra() ?? 'legacy';
    // A 2026-era server is told in each request (request-meta.ts). Not waited for: the first list
    // goes out behind it, and a server that refuses it still connects.
    if (era === 'legacy' && capabilities.logging !== undefined) {
      sdk
        .setLoggingLevel(logLevel, { timeout: config.timeoutMs })
        .catch((error: unknown) =>
          logger.debug(
            `MCP server "${config.name}" was asked to send its log messages from "${logLevel}" on, and refused: ${scrub(messageOf(error))}`,
            { server: config.name },
          ),
        );
    }
    // Before the first list: a hint that breaks the spec must not cost the server its tools.
    if (era === 'modern')
      readBadCacheHintsAsNone(handle.transport, { server: config.name, logger });
    // The list itself is asked by the client, with its request options and page limit.
    if (capabilities.tools?.listChanged) {
      onToolsListChanged(sdk, () => {
        if (opened !== undefined) options.onToolsChanged(opened);
      });
    }
    // On 2026-07-28 list changes come by a subscriptions/listen stream, asked for before the tools
    // are listed so that no change falls between. A server that refuses it, or never acknowledges
    // it, is still usable: its tools are known, only their changes would go unseen.
    if (era === 'modern' && capabilities.tools?.listChanged) {
      const { timeoutMs, name: server } = config;
      listening = new ToolsSubscription({ sdk, server, timeoutMs, logger, scrub });
      const left = (deadline - Date.now()) / 2;
      await listening.waitFor(Math.min(LISTEN_ACK_WAIT_MS, left), opening.signal);
    }
    // SEP-2243 binds Streamable HTTP only; the 2025 era has no such headers.
    const mirrors = config.transport === 'http' && era === 'modern';
    const listed = await firstTools(sdk, options, { signal: opening.signal, mirrors });
    if (opening.signal.aborted) throw opening.signal.reason;
    // Closed between its answers and now: checked in the same tick the connection starts watching.
    if (sdk.transport === undefined) throw new Error('the server closed the connection');
    const discover = sdk.getDiscoverResult();
    const protocol = { era, version: sdk.getNegotiatedProtocolVersion() ?? '' };
    opened = new Connection({
      server: config.name,
      taskCalls: config.taskCalls ?? 'required',
      sdk,
      handle,
      roots,
      info: {
        ...serverIdentity(sdk),
        protocol,
        tools: listed.tools,
        resources: capabilities.resources !== undefined,
        prompts: capabilities.prompts !== undefined,
        capabilities: serverCapabilities(capabilities),
        memory: {
          verdict:
            era === 'modern' && discover !== undefined
              ? { ...protocol, era, discover }
              : { ...protocol, era: 'legacy' },
          ...(listed.freshUntil === undefined ? {} : { toolsFreshUntil: listed.freshUntil }),
          ...(listed.scope === undefined ? {} : { toolsScope: listed.scope }),
        },
      },
      remote: config.transport !== 'stdio',
      mirrors,
      paramHeaders: listed.paramHeaders,
      log,
      questions,
      upkeep: (method) =>
        operation({
          config,
          scrub,
          options: options.settings.tracing,
          target: { method },
          parent: DETACHED,
        }),
      session: new SessionClock(config, protocol.version),
    });
    if (listening !== undefined) {
      const connection = opened;
      // Acknowledged after the first list: listed again, so a change before it is not missed.
      opened.watch(listening, () => options.onToolsChanged(connection));
    }
    const outcome: AttemptOutcome = { ok: true, connection: opened };
    return { outcome, exitedWhileProbing: false, verdictRefused: false };
  } catch (thrown) {
    listening?.stop();
    return await failedOpen({
      parts: options,
      thrown,
      signal: opening.signal,
      fromVerdict: prior !== undefined,
      handle,
      exited,
      handshaken,
      tooLong,
      tryStreamable: async (http) => {
        const probe = await openConnection({ ...options, config: http, signal: opening.signal });
        if (probe.ok) await probe.connection.close().catch(() => {});
        return probe.ok;
      },
    });
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onClose);
  }
}

/**
 * The connection's first tool list: the remembered one while the server said it stays fresh (or
 * none, when it declares no tools), else asked, each page within `timeout`.
 */
function firstTools(
  sdk: Client,
  { config, scrub, settings, remembered }: AttemptParts,
  { signal, mirrors }: { readonly signal: AbortSignal; readonly mirrors: boolean },
): Promise<ToolList & { readonly freshUntil: number | undefined }> {
  const declared = Boolean(sdk.getServerCapabilities()?.tools);
  const owner = { server: config.name, logger: settings.logger };
  const freshUntil = remembered?.memory?.toolsFreshUntil;
  // A list the server said stays fresh is not asked for again until then.
  if (!declared || (freshUntil !== undefined && freshUntil > Date.now())) {
    return Promise.resolve({
      ...markedTools(declared ? [...(remembered?.tools ?? [])] : [], owner, mirrors),
      ttlMs: undefined,
      scope: remembered?.memory?.toolsScope,
      freshUntil,
    });
  }
  const options = { timeout: config.timeoutMs, signal };
  return untilAborted(
    listTools(sdk, options, owner, mirrors).then(
      (list) => ({
        ...list,
        freshUntil: list.ttlMs === undefined ? undefined : Date.now() + list.ttlMs,
      }),
      (error: unknown) => {
        throw requestError(error, {
          server: config.name,
          method: 'tools/list',
          timeoutMs: config.timeoutMs,
          sent: true,
          scrub,
          url: remoteUrl(config),
        });
      },
    ),
    signal,
  );
}

/**
 * A 2025-era server's questions (elicitation/create, form or URL), put to the person by
 * `questions`. Taken by the handler of last resort, not a registered one: the SDK would check a
 * registered handler's request against its own schema first and answer a form it finds wrong
 * (a `password` format, a nested object) with an error, where the README's rules answer `cancel`
 * and log why (ask.ts reads the form); and with nobody to ask, no handler may be registered at
 * all, while a server that asks anyway is still answered `cancel`, never "method not found".
 * A URL question's end (notifications/elicitation/complete) needs nothing of epoch.
 */
function answerQuestions(
  sdk: Client,
  questions: ConnectionQuestions,
  logger: Logger,
  server: string,
): void {
  sdk.fallbackRequestHandler = async (request, ctx) => {
    if (request.method !== 'elicitation/create') {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    }
    return questions.fromServer(request.params, ctx.mcpReq.signal);
  };
  sdk.setNotificationHandler('notifications/elicitation/complete', () =>
    logger.debug(`MCP server "${server}" says a page it asked the person to visit was done with.`, {
      server,
    }),
  );
}

function priorDiscovery(verdict: McpEraVerdict): PriorDiscovery {
  return verdict.era === 'modern'
    ? { kind: 'modern', discover: verdict.discover }
    : { kind: 'legacy' };
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts: for steps (a transport
 * start, an SSE stream that never opens) that take no signal of their own.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
