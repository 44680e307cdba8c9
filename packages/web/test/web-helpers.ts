// Shared by the web tests: epoch web started in this process over real HTTP on 127.0.0.1, the
// fixture servers as mcp.json entries, calls to the API with this launch's token, raw requests
// (for a Host header fetch would not send), and the event stream.
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { FIXTURE_SERVER, fixtureServerArgs } from '@epoch-agent/testkit';
import { type McpView, type RunningWeb, type StartWebOptions, startWeb } from '@epoch-agent/web';
import { expect } from 'vitest';
import type { ServerEntry } from '../src/api-types.js';

/** The fixture server's `annotated` tools (lookup, forget): arguments after node. */
export const ANNOTATED_SERVER = fixtureServerArgs('annotated');
export const FAILING_SERVER = fileURLToPath(
  new URL('./fixtures/failing-server.mjs', import.meta.url),
);
/**
 * A server whose tool list is a file it reads on every tools/list; its `change_tools` tool rewrites
 * that file and sends list_changed (see its header): arguments `<tools-file> <record-file>`.
 */
export const CHANGING_TOOLS_SERVER = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/changing-tools-server.mjs', import.meta.url),
);
/**
 * The fixture server's `pid` tools, `whoami` and one per `--tool=<name>`, answering with its pid:
 * its script, whose default catalog they are.
 */
export const PID_SERVER = FIXTURE_SERVER;

/** An mcp.json entry running a fixture server (a script, or arguments after node) with this Node. */
export function fixtureEntry(
  script: string | readonly string[],
  extra: Record<string, unknown> = {},
) {
  return {
    command: process.execPath,
    args: typeof script === 'string' ? [script] : [...script],
    ...extra,
  };
}

export interface TestWeb extends RunningWeb {
  readonly token: string;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** A fetch of `path` on the page's server with the token (unless `headers` overrides it). */
  api(path: string, init?: ApiInit): Promise<Response>;
  /** The first view of the event stream for which `done` holds. */
  viewWhen(done: (view: McpView) => boolean): Promise<McpView>;
  /**
   * The first view in which no server is connecting any more (startWeb does not wait for them):
   * where a test of servers that have connected or failed starts.
   */
  settled(): Promise<McpView>;
}

export interface ApiInit {
  readonly method?: string;
  /** Sent as JSON. */
  readonly json?: unknown;
  readonly headers?: Record<string, string>;
  /** Aborts the request (a page that stops its call). */
  readonly signal?: AbortSignal;
}

/** startWeb with reconnects quick enough for tests. */
export async function startTestWeb(options: StartWebOptions = {}): Promise<TestWeb> {
  const web = await startWeb({
    ...options,
    registry: { reconnectDelaysMs: [100, 200, 400], ...options.registry },
  });
  const url = new URL(web.url);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const api = (path: string, init: ApiInit = {}) =>
    fetch(`${url.origin}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      ...(init.signal === undefined ? {} : { signal: init.signal }),
    });
  const viewWhen = async (done: (view: McpView) => boolean): Promise<McpView> => {
    const views = await readViewsUntil(await api('/api/events'), done);
    return views[views.length - 1] as McpView;
  };
  return {
    ...web,
    token,
    origin: url.origin,
    api,
    viewWhen,
    settled: () =>
      viewWhen((view) =>
        Object.values(view.groups).every((servers) =>
          servers.every((server) => server.status?.state !== 'connecting'),
        ),
      ),
  };
}

/** A request with exactly these headers (fetch will not send another Host). */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        setHost: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Reads the event stream's views until `done` holds for one; returns every view read. */
export async function readViewsUntil(
  response: Response,
  done: (view: McpView, index: number) => boolean,
): Promise<McpView[]> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('the event stream has no body');
  const decoder = new TextDecoder();
  const views: McpView[] = [];
  let buffered = '';
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`the event stream ended after ${views.length} view(s)`);
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        if (!block.includes('event: mcp')) continue;
        const data = block.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
        const view = JSON.parse(data.join('\n')) as McpView;
        views.push(view);
        if (done(view, views.length - 1)) return views;
      }
    }
  } finally {
    await reader.cancel();
  }
}

/**
 * DELETE of server `name` as the page asks it: based on its entry as GET …/entry gives it now (a
 * remove elsewhere, for a test about what the page does when a server goes).
 */
export async function removeAsRead(web: TestWeb, name: string): Promise<Response> {
  const { version } = (await (await web.api(`/api/mcp/${name}/entry`)).json()) as ServerEntry;
  return web.api(`/api/mcp/${name}?basedOn=${encodeURIComponent(version)}`, { method: 'DELETE' });
}

/** Pids of the processes whose command line has the argument `marker`. */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The text `after` added to `before` in one contiguous piece; fails if anything else changed. */
export function oneInsertion(before: string, after: string): string {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) {
    end++;
  }
  expect(start + end, 'everything but one inserted piece is unchanged').toBe(before.length);
  return after.slice(start, after.length - end);
}
