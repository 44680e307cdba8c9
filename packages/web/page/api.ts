// The page's side of the API: this launch's key, every call with it, and the live view.
//
// The key comes in the URL epoch printed, as the fragment (`#token=…`), which the browser never
// sends anywhere. The page keeps it in this tab's sessionStorage and takes it out of the address
// bar, so it survives a reload and the trip through an OAuth login, and is not left on screen.
import type { ToolProgress } from '@epoch-agent/runtime';
import type { ApiErrorBody, McpView, ToolCallAnswer, ToolCallLine } from '../src/api-types.js';

const KEY = 'epoch-web-token';

/** The key of this launch: from the URL's fragment (kept for the tab), or kept earlier. */
export function takeToken(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('token');
  if (given !== null) {
    sessionStorage.setItem(KEY, given);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY) ?? undefined;
}

export type ApiResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: number; readonly error: ApiErrorBody['error'] };

/** How the live view is doing, for the banner. */
export type LiveState = 'connecting' | 'live' | 'lost' | 'refused';

const RETRY_MS = [500, 1000, 2000, 5000];

export class Api {
  readonly #token: string;

  constructor(token: string) {
    this.#token = token;
  }

  /** `signal` aborts the request (a tool call being cancelled); an aborted call rejects. */
  async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      return unreachable();
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { ok: true, value: json as T };
    const error = (json as ApiErrorBody | undefined)?.error;
    return {
      ok: false,
      status: response.status,
      error: error ?? { code: 'http_error', message: `epoch web answered ${response.status}.` },
    };
  }

  /**
   * POST `path` (a tool's …/call) answered as the call runs: `onProgress` with each report, then
   * the answer as call() gives it. `signal` cancels the call; an aborted call rejects.
   */
  async callAsItRuns(
    path: string,
    body: unknown,
    signal: AbortSignal,
    onProgress: (progress: ToolProgress) => void,
  ): Promise<ApiResult<ToolCallAnswer>> {
    let response: Response;
    try {
      response = await fetch(path, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.#token}`,
          accept: 'application/x-ndjson',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      return unreachable();
    }
    if (!response.ok || response.body === null) {
      const error = ((await response.json().catch(() => undefined)) as ApiErrorBody | undefined)
        ?.error;
      return {
        ok: false,
        status: response.status,
        error: error ?? { code: 'http_error', message: `epoch web answered ${response.status}.` },
      };
    }
    for await (const line of lines(response.body)) {
      const read = JSON.parse(line) as ToolCallLine;
      if ('progress' in read) onProgress(read.progress);
      else if ('result' in read) return { ok: true, value: read };
      else return { ok: false, status: read.status, error: read.error };
    }
    if (signal.aborted) throw signal.reason;
    return unreachable();
  }

  /**
   * Follows GET /api/events: `onView` with every view, `onState` as the stream comes and goes. A
   * lost stream is opened again (epoch web may be restarting); a refused one is not. Returns the
   * function that stops following.
   */
  watch(onView: (view: McpView) => void, onState: (state: LiveState) => void): () => void {
    const stop = new AbortController();
    const follow = async () => {
      for (let attempt = 0; !stop.signal.aborted; attempt++) {
        onState(attempt === 0 ? 'connecting' : 'lost');
        try {
          const response = await fetch('/api/events', {
            headers: { authorization: `Bearer ${this.#token}` },
            signal: stop.signal,
          });
          if (response.status === 401 || response.status === 403) {
            onState('refused');
            return;
          }
          if (response.ok && response.body !== null) {
            await readEvents(response.body, (view) => {
              attempt = 0;
              onState('live');
              onView(view);
            });
          }
        } catch {
          // The stream broke or the server is gone: try again below.
        }
        if (stop.signal.aborted) return;
        onState('lost');
        await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)] as number);
      }
    };
    void follow();
    return () => stop.abort();
  }
}

function unreachable<T>(): ApiResult<T> {
  return {
    ok: false,
    status: 0,
    error: { code: 'unreachable', message: 'epoch web did not answer: is it still running?' },
  };
}

/** The lines of a body, as they come. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffered += decoder.decode(read.value, { stream: true });
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line !== '') yield line;
    }
  }
}

/** Reads server-sent events until the stream ends, calling `onView` with each `mcp` event. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  onView: (view: McpView) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (event === 'mcp') onView(JSON.parse(data) as McpView);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
