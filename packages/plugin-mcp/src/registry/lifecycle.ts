// A server's life in the registry: added (with a client when it is enabled and not held for
// approval), started (offering its cached tools at once, checked against its tool pins read beside
// them), given another choice or another config, held and released, reconnected, removed. Each
// public step is McpRegistry's method of the same name, documented there.

import { messageOf } from '@epoch-agent/infra';
import type { McpServerSchema } from '../cache.js';
import { startOf } from '../config/start.js';
import { McpClient } from '../connection/client.js';
import { ServerOutput } from '../connection/server-output.js';
import { McpError } from '../errors/mcp-error.js';
import { serverStatus } from '../status.js';
import {
  elicitationOf,
  type McpApprovalReason,
  type McpServerConfig,
  type McpServerSource,
  type McpServerStatus,
} from '../types.js';
import { emitStatus, NO_TOOLS, offeredBy, statusOf, withheldBy } from './entry-status.js';
import { announce, learn, NOTHING_SHOWN, offerFor, shownOf, type ToolsShown } from './offers.js';
import { readPins } from './pins.js';
import type { Entry, Servers } from './servers.js';

/** McpRegistry.connectAll: every server added, then all started at once. */
export async function addAll(
  servers: Servers,
  configs: readonly McpServerConfig[],
  source: McpServerSource,
  held: ReadonlyMap<string, McpApprovalReason> = new Map(),
): Promise<McpServerStatus[]> {
  checkNames(servers, configs, source);
  const entries = configs.map((config) => add(servers, config, source, held.get(config.name)));
  for (const entry of entries) {
    if (entry.client === undefined) emitStatus(servers, entry);
  }
  await Promise.all(
    entries.map((entry) =>
      entry.client === undefined ? undefined : start(servers, entry, entry.client),
    ),
  );
  return entries.map((entry) => statusOf(entry));
}

/** McpRegistry.update: another choice, the same connection. */
export async function updateChoice(
  servers: Servers,
  config: McpServerConfig,
): Promise<McpServerStatus> {
  const entry = servers.entries.get(config.name);
  if (entry === undefined) throw servers.unknown(config.name);
  const before = shownBy(entry);
  const { client, offer } = entry;
  entry.config = config;
  client?.useElicitation(elicitationOf(config, entry.source));
  const { enabled } = config.choice;
  if (client !== undefined && !enabled) {
    entry.client = undefined;
    entry.offer = undefined;
    entry.connected = false;
    emitStatus(servers, entry);
    announce(servers, entry, before, NOTHING_SHOWN, 'choice');
    await client.close();
  } else if (client === undefined && enabled && entry.held === undefined) {
    await start(servers, entry, attach(servers, entry));
    // Its first list is a change too here: the model was offered none of its tools before.
    if (servers.entries.get(config.name) === entry) {
      announce(servers, entry, before, shownBy(entry), 'choice');
    }
  } else {
    if (client !== undefined && offer !== undefined) {
      // Pinning turned on for a server connected now: its live list is its first.
      entry.offer = offerFor(servers, entry, client, offer.schema, { live: entry.connected });
    }
    emitStatus(servers, entry);
    announce(servers, entry, before, shownBy(entry), 'choice');
    // No longer started on demand: it starts now, as its new setting says. (The other way, a
    // running server stays until it is closed; its idle timeout is its next start's.)
    const startsNow = startOf(config, servers.connection.start) === 'at_start';
    if (startsNow && client?.state.kind === 'notStarted') await connect(servers, entry, client);
  }
  return statusOf(entry);
}

/** McpRegistry.reconfigure: another connection, the server registered throughout. */
export async function replaceConnection(
  servers: Servers,
  config: McpServerConfig,
  held: McpApprovalReason | undefined,
): Promise<McpServerStatus> {
  const entry = servers.entries.get(config.name);
  if (entry === undefined) throw servers.unknown(config.name);
  const { client: old, config: previous } = entry;
  entry.config = config;
  entry.connected = false;
  entry.held = held;
  // Before the old client closes, so its last states are not heard and the status says
  // `connecting` (with the tools it offered) rather than disconnected for that moment.
  const client = config.choice.enabled && held === undefined ? attach(servers, entry) : undefined;
  entry.client = client;
  client?.willConnect();
  if (client === undefined) entry.offer = undefined;
  emitStatus(servers, entry);
  const replacing = (async () => {
    await Promise.all([old?.close(), servers.cache?.invalidate(previous)]);
    if (
      client !== undefined &&
      servers.entries.get(config.name) === entry &&
      entry.client === client
    ) {
      await start(servers, entry, client);
    }
  })();
  entry.replacing = replacing;
  try {
    await replacing;
  } finally {
    if (entry.replacing === replacing) entry.replacing = undefined;
  }
  return statusOf(entry);
}

/** McpRegistry.reconnect: the cached schema forgotten, the client started over. */
export async function restart(servers: Servers, name: string): Promise<McpServerStatus> {
  const entry = servers.entries.get(name);
  if (entry === undefined) throw servers.unknown(name);
  const { client } = entry;
  if (client === undefined) throw servers.notStarted(entry);
  const before = entry.offer;
  entry.offer = undefined;
  // Pins another process approved meanwhile hold from this connection on.
  await Promise.all([servers.cache?.invalidate(entry.config), readPins(servers, entry)]);
  await client.reconnect().catch((error: unknown) => logFailure(servers, entry, error));
  // Learned from the client's state meanwhile, unless the server was disconnected.
  const current = servers.entries.get(name);
  const after = current === entry ? current.offer : undefined;
  if (before !== undefined && after !== undefined) {
    announce(servers, entry, shownOf(before), shownOf(after), 'connect');
  }
  return statusOf(entry);
}

/** McpRegistry.hold: the server stopped (if it ran) and kept, waiting for approval. */
export async function holdServer(
  servers: Servers,
  name: string,
  reason: McpApprovalReason,
): Promise<McpServerStatus> {
  const entry = servers.entries.get(name);
  if (entry === undefined) throw servers.unknown(name);
  const before = shownBy(entry);
  const { client } = entry;
  entry.held = reason;
  entry.client = undefined;
  // Not even its cached tools: what it offered was approved in a form it no longer has.
  entry.offer = undefined;
  entry.connected = false;
  emitStatus(servers, entry);
  announce(servers, entry, before, NOTHING_SHOWN, 'choice');
  await client?.close();
  return statusOf(entry);
}

/** McpRegistry.release: a held server approved, started as connectAll starts one. */
export async function releaseServer(servers: Servers, name: string): Promise<McpServerStatus> {
  const entry = servers.entries.get(name);
  if (entry === undefined) throw servers.unknown(name);
  if (entry.held === undefined) return statusOf(entry);
  entry.held = undefined;
  if (entry.client === undefined && entry.config.choice.enabled) {
    await start(servers, entry, attach(servers, entry));
    // Its first list is a change here: the model was offered none of its tools before.
    if (servers.entries.get(name) === entry)
      announce(servers, entry, NOTHING_SHOWN, shownBy(entry), 'choice');
  } else {
    emitStatus(servers, entry);
  }
  return statusOf(entry);
}

/** McpRegistry.disconnectAll: every server removed, its cached schema kept. */
export async function removeAll(servers: Servers): Promise<void> {
  await Promise.all(
    [...servers.entries.keys()].map((name) => remove(servers, name, { keepCache: true })),
  );
  await Promise.all([servers.cache?.settled(), ...servers.pinWrites]);
}

/** McpRegistry.disconnect (`keepCache: false`), and one server of removeAll (`true`). */
export async function remove(
  servers: Servers,
  name: string,
  how: { readonly keepCache: boolean },
): Promise<void> {
  const entry = servers.entries.get(name);
  if (entry === undefined) return;
  servers.entries.delete(name);
  const closed = entry.client?.close();
  const invalidated = how.keepCache ? undefined : servers.cache?.invalidate(entry.config);
  // One wait where there is one thing to wait for: a close waits for each step.
  await (invalidated === undefined ? closed : Promise.all([closed, invalidated]));
  servers.statusListeners.emit(
    serverStatus(entry.config, entry.source, { kind: 'disconnected' }, NO_TOOLS),
  );
}

/** What the model is offered of the server now, and what is withheld. */
function shownBy(entry: Entry): ToolsShown {
  return { tools: offeredBy(entry), withheld: withheldBy(entry) };
}

function checkNames(
  servers: Servers,
  configs: readonly McpServerConfig[],
  source: McpServerSource,
): void {
  const seen = new Set<string>();
  for (const { name } of configs) {
    const existing = servers.entries.get(name);
    if (existing !== undefined || seen.has(name)) {
      const owner = existing === undefined ? 'this same call' : `a ${existing.source} server`;
      throw new McpError(
        'duplicate_server',
        `MCP server "${name}" (${source}) cannot be added: the name is already used by ${owner}. Disconnect that one first, or rename this one.`,
        { server: name },
      );
    }
    seen.add(name);
  }
}

function add(
  servers: Servers,
  config: McpServerConfig,
  source: McpServerSource,
  held: McpApprovalReason | undefined,
): Entry {
  const entry: Entry = {
    config,
    source,
    held,
    client: undefined,
    offer: undefined,
    pins: undefined,
    connected: false,
    lastStatus: undefined,
    replacing: undefined,
    output: new ServerOutput(),
  };
  servers.entries.set(config.name, entry);
  if (config.choice.enabled && held === undefined) attach(servers, entry);
  return entry;
}

/** Gives an enabled server its client, not started yet. */
function attach(servers: Servers, entry: Entry): McpClient {
  const { config } = entry;
  const client = new McpClient({
    ...servers.connection,
    config,
    source: entry.source,
    output: entry.output,
  });
  entry.client = client;
  client.onStateChange((state) => {
    // A server being disconnected reports its own last status; a removed one, or a client
    // closed by turning the server off, reports nothing.
    if (servers.entries.get(config.name) !== entry || entry.client !== client) return;
    const change = state.kind === 'connected' ? learn(servers, entry, client, state) : undefined;
    entry.connected = state.kind === 'connected';
    emitStatus(servers, entry);
    if (change !== undefined) announce(servers, entry, change.before, change.after, change.reason);
  });
  return client;
}

/**
 * Offers the server's cached tools, if any, and connects it: resolves at once with a cache (the
 * connect begins on the next turn, so the host has the tools before any process is spawned), else
 * when it is connected or failed. A server started on demand whose tools are cached is not
 * connected at all: `notStarted` until its first request. The status says `connecting` (or
 * `notStarted`) with the cached tools before the SDK has loaded: a host registers them on that
 * event, so they never wait for the connection's code.
 */
async function start(servers: Servers, entry: Entry, client: McpClient): Promise<void> {
  // `connecting` from now, though its first status event waits for the cached tools (when
  // reconfigure() began the connect already, its status said since when).
  client.willConnect();
  // The pins beside the cache: a cached list is checked against them, never trusted instead.
  const [cached] = await Promise.all([servers.cache?.get(entry.config), readPins(servers, entry)]);
  // Disconnected or turned off meanwhile: its client is closed, and a connect would start it again.
  if (servers.entries.get(entry.config.name) !== entry || entry.client !== client) return;
  // Not offered: only how the server was met (its era) is kept, and its list is asked again.
  const schema = servers.offerCached ? cached : undefined;
  client.remember(servers.offerCached ? cached : withoutFreshness(cached));
  if (schema === undefined) return connect(servers, entry, client);
  // A reconfigured server offers what it offered until its new connection (or cache) says otherwise.
  const before = entry.offer;
  entry.offer = offerFor(servers, entry, client, schema);
  if (startOf(entry.config, servers.connection.start) === 'on_demand') client.standBy();
  emitStatus(servers, entry);
  if (before !== undefined) {
    announce(servers, entry, shownOf(before), shownOf(entry.offer), 'connect');
  }
  if (client.state.kind !== 'notStarted') {
    void client.connectSoon().catch((error: unknown) => logFailure(servers, entry, error));
  }
}

/** Resolves when the server is connected or failed; a failure is its status (and a log line). */
function connect(servers: Servers, entry: Entry, client: McpClient): Promise<void> {
  return client.connect().catch((error: unknown) => logFailure(servers, entry, error));
}

function logFailure(servers: Servers, entry: Entry, error: unknown): void {
  // Messages from the client are already free of secrets.
  servers.logger.warn(messageOf(error), { server: entry.config.name, source: entry.source });
}

/** `schema` with its tool list no longer fresh: the connect asks for it (its era is kept). */
function withoutFreshness(schema: McpServerSchema | undefined): McpServerSchema | undefined {
  if (schema?.memory?.toolsFreshUntil === undefined) return schema;
  const { toolsFreshUntil: _, ...memory } = schema.memory;
  return { ...schema, memory };
}
