// Streamable HTTP answers a request on an SSE stream of its own. When that stream breaks off before
// the answer (the server crashed or restarted, a proxy cut it) and the server gave no event id to
// resume from, the SDK reports the break to onerror and does nothing for the request: its caller
// waits out the full `timeout` (300 s by default) for an answer that cannot come. This answers
// such a request at once, with an error response the client turns into a readable failure.
import type {
  JSONRPCMessage,
  RequestId,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';

/**
 * The code of that error response, in JSON-RPC's implementation-defined range; requestError()
 * recognises it. The response never came from the server.
 */
export const STREAM_ENDED_CODE = -32099;

/** Makes `transport` answer a request whose response stream ended without its answer. */
export function answerBrokenStreams(
  transport: StreamableHTTPClientTransport,
): StreamableHTTPClientTransport {
  /** Requests sent and neither answered nor cancelled yet. */
  const pending = new Set<RequestId>();
  const send = transport.send.bind(transport);
  // Set before the SDK connects: its Protocol keeps this handler and calls it first.
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && !('method' in message) && message.id !== undefined) {
      pending.delete(message.id);
    }
  };
  // The messages come from the SDK, well formed: their shape tells what they are, without the
  // SDK's schema checks on every request.
  transport.send = async (message, options) => {
    if (!('method' in message)) return send(message, options);
    if (!('id' in message)) {
      if (message.method === 'notifications/cancelled') {
        // A timed-out or aborted request: its caller has its answer already.
        const { requestId } = (message.params ?? {}) as { requestId?: RequestId };
        if (requestId !== undefined) pending.delete(requestId);
      }
      return send(message, options);
    }
    const { id, method } = message;
    pending.add(id);
    // In the 2026 era a timed-out or aborted request is cancelled by closing its stream instead
    // of notifications/cancelled: its caller has its answer already, too.
    options?.requestSignal?.addEventListener('abort', () => pending.delete(id), { once: true });
    const onRequestStreamEnd = (): void => {
      options?.onRequestStreamEnd?.();
      if (!pending.delete(id)) return;
      transport.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: {
          code: STREAM_ENDED_CODE,
          message: `the HTTP response stream of ${method} ended before the server answered`,
        },
      });
    };
    try {
      await send(message, { ...options, onRequestStreamEnd });
    } catch (error) {
      pending.delete(id);
      throw error;
    }
  };
  return transport;
}
