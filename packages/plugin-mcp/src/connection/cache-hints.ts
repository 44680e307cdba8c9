// The cache hints of a 2026-07-28 result (SEP-2549: `ttlMs`, `cacheScope` on a list or a read,
// both required), checked before the SDK reads the result. The SDK refuses a whole result whose hint breaks the
// spec, and with the first tools/list the server; but a hint only says how long an answer may be
// kept, which the client can do without. So a bad one is read as the spec's "keep nothing" (ttlMs
// 0, cacheScope "private", as the SDK itself reads a bad hint of server/discover), with a warning
// naming the server, the method, the field and the value (its escapes made visible).
import { type Logger, visibleText } from '@epoch-agent/infra';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** The results that carry cache hints on 2026-07-28. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** Requests remembered until answered; one never answered (cancelled) must not pile up. */
const MAX_WAITING = 1_000;

/** A value shown in a warning: a server's text, its controls made visible, short. */
const SHOWN_CHARS = 60;

interface Owner {
  readonly server: string;
  readonly logger: Logger;
}

/** Call after the SDK has connected `transport` (it sets the transport's onmessage then). */
export function readBadCacheHintsAsNone(transport: Transport, owner: Owner): void {
  const deliver = transport.onmessage;
  const send = transport.send.bind(transport);
  const waiting = new Map<string | number, string>();
  /** Each method's field is warned about once per connection, not on every page or call. */
  const warned = new Set<string>();
  transport.send = (message, options) => {
    const id = 'id' in message ? message.id : undefined;
    if ('method' in message && id !== undefined && CACHEABLE.has(message.method)) {
      if (waiting.size >= MAX_WAITING) waiting.delete(waiting.keys().next().value as string);
      waiting.set(id, message.method);
    }
    return send(message, options);
  };
  transport.onmessage = (message, extra) => {
    const id = 'id' in message ? message.id : undefined;
    const method = id === undefined ? undefined : waiting.get(id);
    if (id === undefined || method === undefined) return deliver?.(message, extra);
    waiting.delete(id);
    deliver?.(repaired(message, method, owner, warned), extra);
  };
}

function repaired(
  message: JSONRPCMessage,
  method: string,
  owner: Owner,
  warned: Set<string>,
): JSONRPCMessage {
  if (!('result' in message)) return message;
  const result = message.result as Record<string, unknown>;
  const fixes: Record<string, unknown> = {};
  const { ttlMs, cacheScope } = result;
  // Missing is as bad as wrong to the SDK: 2026-07-28 makes both required.
  if (!(Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0)) {
    fixes.ttlMs = 0;
    warn(owner, warned, method, 'ttlMs', ttlMs, 'a whole number of milliseconds from 0 to 2^53-1');
  }
  if (cacheScope !== 'public' && cacheScope !== 'private') {
    fixes.cacheScope = 'private';
    warn(owner, warned, method, 'cacheScope', cacheScope, '"public" or "private"');
  }
  if (Object.keys(fixes).length === 0) return message;
  return { ...message, result: { ...result, ...fixes } };
}

function warn(
  { server, logger }: Owner,
  warned: Set<string>,
  method: string,
  field: string,
  value: unknown,
  valid: string,
): void {
  const key = `${method} ${field}`;
  if (warned.has(key)) return;
  warned.add(key);
  const has =
    value === undefined
      ? `no ${field}`
      : `${field} ${visibleText(JSON.stringify(value) ?? String(value), { max: SHOWN_CHARS })}`;
  const meaning = field === 'ttlMs' ? 'keep it for no time' : 'keep it for this user only';
  logger.warn(
    `MCP server "${server}": its ${method} answer has ${has}, which must be ${valid}; read as absent (${meaning}). Ask the server's maintainers to fix it.`,
    { server, method },
  );
}
