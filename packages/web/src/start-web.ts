// startWeb: what `epoch web` runs. Listens on 127.0.0.1 (only), builds the runtime every front end
// runs on, and serves the connectors page and its API over it until close().
//
// The port is taken before any server is started, so a port in use fails at once. The servers
// connect in the background (`connect: 'background'`): the page is served as soon as the files
// are read, and shows each server connecting, live, until it settles; one that never answers
// holds up nothing. The URL it resolves with carries this launch's key (guard.ts): the person who
// started it gets the only copy.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@epoch-agent/infra';
import {
  type BuildRuntimeOptions,
  buildRuntime,
  FRONT_END_START,
  type ImportPlaces,
  type Runtime,
  watchMcpConfig,
} from '@epoch-agent/runtime';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from './app.js';
import { WebError } from './errors.js';
import { KeyHandoffs } from './key-handoff.js';
import { PageLogins } from './page-logins.js';
import { ViewFeed } from './view-feed.js';

export interface StartWebOptions extends Omit<BuildRuntimeOptions, 'connectOnly' | 'connect'> {
  /** The port on 127.0.0.1. Default 0: a free one (the URL says which). */
  readonly port?: number;
  /** Where "Import from…" looks for other clients' files. Default: this user's home, the working directory. */
  readonly importPlaces?: ImportPlaces;
}

export interface RunningWeb {
  /**
   * The page, with this launch's key in its fragment (`http://127.0.0.1:<port>/#token=…`). Print
   * it; besides it, only the one answer of a oneTimeUrl() hands out the key.
   */
  readonly url: string;
  /**
   * A new one-time address of the page (`http://127.0.0.1:<port>/open/<id>`) for a browser opener,
   * whose command line every local user can read: it leads to `url` once, within a minute, and
   * carries no key itself (key-handoff.ts).
   */
  oneTimeUrl(): string;
  readonly port: number;
  /**
   * Stops serving (open pages see the server go), stops logins still waiting for the browser, and
   * disconnects every server, connected or still connecting, their processes reaped. Safe to call
   * more than once.
   */
  close(): Promise<void>;
}

// Beside this module once built: dist/page, where `vite build` puts the page.
const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));

export async function startWeb(options: StartWebOptions = {}): Promise<RunningWeb> {
  const { port: wanted = 0, importPlaces = placesHere(), ...runtimeOptions } = options;
  const logger = options.logger ?? silentLogger;
  // Until the files are read nobody has the URL (and so the key); answer anyone early all the same.
  // `env` carries the request's socket (the one-time address asks who owns it: peer-owner.ts).
  let handle: (request: Request, env: unknown) => Response | Promise<Response> = () =>
    new Response('epoch web is starting', { status: 503 });
  const server = createAdaptorServer({
    fetch: (request, env) => handle(request, env),
    // By default the adapter swaps the process's global Request and Response for its own; the
    // runtime's MCP clients share this process and its fetch, so leave them as Node made them.
    overrideGlobalObjects: false,
  }) as Server;
  const port = await listen(server, wanted);
  const token = randomBytes(32).toString('base64url');
  const url = `http://127.0.0.1:${port}/#token=${token}`;

  let runtime: Runtime;
  try {
    runtime = await buildRuntime({
      ...runtimeOptions,
      // The page shows servers working: each starts, unless its entry says on_demand.
      registry: { start: FRONT_END_START, ...runtimeOptions.registry },
      connect: 'background',
    });
  } catch (error) {
    await stopListening(server);
    throw error;
  }
  const feed = new ViewFeed();
  const changed = () => feed.changed();
  const unsubscribe = [
    runtime.mcp.onStatus(changed),
    runtime.mcp.onToolsChanged(changed),
    runtime.tools.onChange(changed),
  ];
  const stopWatching = watchMcpConfig(runtime, { onApplied: changed, logger });
  const logins = new PageLogins({ runtime, returnUrl: url, onChange: changed });
  const handoffs = new KeyHandoffs();
  const app = createApp({
    runtime,
    logins,
    feed,
    token,
    handoffs,
    port,
    pageDir: PAGE_DIR,
    logger,
    importPlaces,
  });
  handle = (request, env) => app.fetch(request, env);

  let closed: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    stopWatching();
    logins.close();
    feed.close();
    for (const stop of unsubscribe) stop();
    await stopListening(server);
    await runtime.close();
  };
  return {
    url,
    oneTimeUrl: () => `http://127.0.0.1:${port}/open/${handoffs.mint()}`,
    port,
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new WebError(
              'port_in_use',
              `epoch web cannot listen on 127.0.0.1:${port}: another program uses that port. Stop it, or choose another port with --port.`,
              { port, cause: error },
            )
          : new WebError(
              'listen_failed',
              `epoch web cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}).`,
              { port, cause: error },
            ),
      ),
    );
    // Loopback only: the page can add commands that epoch runs; nobody on the network may reach it.
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function stopListening(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Open event streams would hold close() until their pages go away.
    server.closeAllConnections();
  });
}

/** This user's home and the working directory, as `epoch mcp import` reads them. */
function placesHere(): ImportPlaces {
  return {
    home: homedir(),
    project: process.cwd(),
    platform: process.platform,
    appData: process.env.APPDATA,
    xdgConfigHome: process.env.XDG_CONFIG_HOME,
  };
}
