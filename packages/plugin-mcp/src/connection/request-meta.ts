// What every request of a connection carries in its `_meta` beyond the SDK's envelope: the trace
// context of the operation it belongs to (SEP-414: `traceparent`, `tracestate`, `baggage`, as the
// host's registered propagators write them; nothing without an SDK), and on a 2026-07-28
// connection the log level asked of the server (`io.modelcontextprotocol/logLevel`: a server of
// that era sends no log message to a request without one). Put on the transport's send, the one
// door every request goes out by, in both eras and on every transport: the SDK's (the handshake,
// lists, calls, keepalives, a retry after input_required) and direct-calls.ts'.

import {
  type JSONRPCMessage,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type Transport,
} from '@modelcontextprotocol/client';
import { context, propagation } from '@opentelemetry/api';
import type { McpLogLevel } from '../types.js';
import { requestSent, tracingOn } from './tracing.js';

/** Has every request `transport` sends carry the trace context and (2026 era) `logLevel`. */
export function stampRequests(transport: Transport, logLevel: McpLogLevel): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(stamped(message, logLevel), options);
}

function stamped(message: JSONRPCMessage, logLevel: McpLogLevel): JSONRPCMessage {
  if (!('method' in message) || !('id' in message)) return message;
  const params = message.params;
  const meta = params?._meta;
  // The SDK's envelope says the era: only a 2026-07-28 request carries a protocol version in it.
  const modern = meta !== undefined && PROTOCOL_VERSION_META_KEY in meta;
  const traced = tracingOn();
  // A 2025-era request without a host's SDK (every call on the hot path): nothing to add, and
  // nothing made to find that out.
  if (!modern && !traced) return message;
  const level = modern && !(LOG_LEVEL_META_KEY in meta) ? { [LOG_LEVEL_META_KEY]: logLevel } : {};
  const carrier: Record<string, string> = {};
  if (traced) {
    requestSent(message.id);
    propagation.inject(context.active(), carrier);
  }
  if (!modern && Object.keys(carrier).length === 0) return message;
  return { ...message, params: { ...params, _meta: { ...meta, ...level, ...carrier } } };
}
