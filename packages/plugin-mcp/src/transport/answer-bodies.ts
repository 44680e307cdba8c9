// A remote server's answers not valid MCP (answer-check.ts), replaced in the HTTP bodies they come
// in, before the SDK's transports parse them: a JSON body (Streamable HTTP's answer to a POST) as
// it is read, an event stream (Streamable HTTP's answer to a POST and its GET stream, legacy SSE's
// stream) event by event (event-stream.ts). Both SDK transports make every request through the
// `fetch` they are given, legacy SSE's EventSource too.
//
// On an event stream the error answer put in place crosses the SDK's parse as text, where a
// NotValidMcp cannot: its `data` is marked with a key no server knows, and the transport gives the
// SDK a NotValidMcp for it before the SDK's Protocol reads the answer.
import type { FetchLike, Transport } from '@modelcontextprotocol/client';
import { checkedAnswer, isJsonRpc, NotValidMcp } from './answer-check.js';
import { rewrittenEvents } from './event-stream.js';

/** The key of that mark: made in this process, never sent anywhere, so no answer can carry it. */
const MARK = `not-valid-mcp-${crypto.randomUUID()}`;

/**
 * `fetch`, whose JSON and event-stream bodies have each answer not valid MCP replaced as
 * checkedAnswer does. Other bodies are not touched.
 */
export function checkingAnswers(fetch: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    // On this response only. The SDK reads a JSON answer with json(), after its status checks.
    const json = response.json.bind(response);
    Object.defineProperty(response, 'json', { value: async () => checkedBody(await json()) });
    const { body } = response;
    if (body !== null && isEventStream(response.headers.get('content-type'))) {
      // Made only once `body` is read, so that a body the SDK reads with text() (an error, an
      // answer to a notification) is not locked by a reader of ours.
      let checked: ReadableStream<Uint8Array> | undefined;
      Object.defineProperty(response, 'body', {
        get: () => {
          checked ??= rewrittenEvents(body, checkedEventData);
          return checked;
        },
      });
    }
    return response;
  };
}

/**
 * Makes `transport` give the SDK a NotValidMcp for the mark of an error answer put in place on an
 * event stream. Call before the SDK connects: its Protocol calls the handler it finds first, with
 * the message it goes on to read.
 */
export function revivingMarks<T extends Transport>(transport: T): T {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('error' in message) {
      const { error } = message;
      const data = error.data as Record<string, unknown> | undefined;
      const issue = typeof data === 'object' && data !== null ? data[MARK] : undefined;
      if (typeof issue === 'string') error.data = new NotValidMcp(issue);
    }
    deliver?.(message, extra);
  };
  return transport;
}

function checkedBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(checkedBody);
  return isJsonRpc(body) ? checkedAnswer(body) : body;
}

/**
 * The data of an event whose message is an answer not valid MCP: the error answer in its place,
 * marked. Undefined for any other: data that is not JSON-RPC is the SDK's to report.
 */
function checkedEventData(data: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isJsonRpc(message)) return undefined;
  const checked = checkedAnswer(message);
  if (checked === message || !('error' in checked)) return undefined;
  const { issue } = checked.error.data as NotValidMcp;
  return JSON.stringify({ ...checked, error: { ...checked.error, data: { [MARK]: issue } } });
}

/** As the SDK's transports read a Content-Type: its media type, any parameters aside. */
function isEventStream(contentType: string | null): boolean {
  const type = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return type === 'text/event-stream';
}
