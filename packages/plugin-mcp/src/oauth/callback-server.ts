// The loopback listener a browser login ends at: http://127.0.0.1:<port>/callback. It takes exactly
// one request that has the right path and the `state` this login sent, answers the browser with a
// short page, and closes. Anything else (a favicon fetch, a stale tab of an earlier login, a forged
// link) gets a 404 or 400 and changes nothing.
//
// Only 127.0.0.1, never every interface: the authorization code must not be reachable from the
// network. RFC 8252 §7.3 loopback redirect.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpError } from '../errors/mcp-error.js';

export const CALLBACK_PATH = '/callback';

export interface CallbackServerOptions {
  /** The MCP server being logged in to, for the page and messages. */
  readonly server: string;
  /** 0: any free port. */
  readonly port: number;
  /** The `state` sent with the authorization request; the callback must carry the same. */
  readonly state: string;
  /** Aborting stops waiting: `callback` rejects with the signal's reason. */
  readonly signal: AbortSignal;
  /**
   * The matching callback sends the browser here (303) instead of answering with a page: back to
   * the page that started the login, which shows how it ends.
   */
  readonly returnUrl?: string;
}

export interface CallbackServer {
  /** The redirect URI to register and send: `http://127.0.0.1:<port>/callback`. */
  readonly redirectUrl: string;
  readonly port: number;
  /** The matching callback's query (`code` and `iss`, or `error`). The server is closed by then. */
  readonly callback: Promise<URLSearchParams>;
  /** Stops listening; safe to call more than once. */
  close(): Promise<void>;
}

export async function startCallbackServer(options: CallbackServerOptions): Promise<CallbackServer> {
  const { server: name, state, signal } = options;
  let settle: { resolve(p: URLSearchParams): void; reject(e: unknown): void } | undefined;
  const callback = new Promise<URLSearchParams>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be awaiting it yet (the browser is still on its way); the caller sees it on await.
  callback.catch(() => {});

  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      page(res, 404, 'Not found', 'This address only takes the end of an epoch login.');
      return;
    }
    if (url.searchParams.get('state') !== state || settle === undefined) {
      page(
        res,
        400,
        'Not this login',
        `This link does not belong to the login to "${name}" that epoch is waiting for (its state does not match). Start the login again.`,
      );
      return;
    }
    const { resolve } = settle;
    settle = undefined;
    res.on('finish', () => void close());
    resolve(url.searchParams);
    if (options.returnUrl !== undefined) {
      res.writeHead(303, { location: options.returnUrl, ...PRIVATE }).end();
      return;
    }
    const failed = url.searchParams.has('error');
    page(
      res,
      failed ? 400 : 200,
      failed ? 'Login failed' : 'Logged in',
      failed
        ? `The login to "${name}" was not completed. The terminal says why; you can close this tab.`
        : `epoch is now logged in to "${name}". You can close this tab.`,
    );
  });

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    return closed;
  };

  const onAbort = (): void => {
    settle?.reject(signal.reason);
    settle = undefined;
    void close();
  };
  await listen(http, options.port, name);
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  void callback.finally(() => signal.removeEventListener('abort', onAbort)).catch(() => {});

  const { port } = http.address() as AddressInfo;
  return { redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`, port, callback, close };
}

function listen(http: ReturnType<typeof createServer>, port: number, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new McpError(
          'login_failed',
          error.code === 'EADDRINUSE'
            ? `Login to MCP server "${name}": port ${port} on 127.0.0.1 is in use, so the login callback cannot be received. Stop what uses it, or change "oauth.callback_port" for "${name}" (the authorization server must accept the new redirect URI).`
            : `Login to MCP server "${name}": cannot listen on 127.0.0.1:${port} for the login callback (${error.code ?? error.message}).`,
          { server: name, cause: error },
        ),
      ),
    );
    http.listen(port, '127.0.0.1', () => resolve());
  });
}

// The callback's URL carries the code: no referrer leaves it, nothing frames it, nothing caches it.
const PRIVATE = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><p>${escapeHtml(text)}</p>\n`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...PRIVATE });
  res.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
