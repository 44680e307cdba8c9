// A hand-written 2026-07-28 MCP server over Streamable HTTP on 127.0.0.1, in the test's own
// process, in raw JSON-RPC so that a test sees exactly what reached it. It answers server/discover
// (so the client negotiates the 2026 era), tools/list and prompts/list with what it was given, and
// each tools/call or prompts/get as that tool's or prompt's script says (a result, to which it adds
// resultType "complete" when it has none, or a JSON-RPC error). Every POST is recorded with its
// headers (lower-case, as Node gives them) and its JSON-RPC id, method and params. A request the
// client gave up on before it was answered — its connection closed under it — is recorded in
// `closed`: on Streamable HTTP in the 2026 era, closing the request's stream is how a client
// cancels it.
import { EventEmitter, once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { WAIT_UNTIL_DEFAULT_MS } from '@epoch-agent/testkit';
import { readBody } from './read-body.js';

export const MODERN = '2026-07-28';

/** The params of a tools/call or prompts/get as the server received them. */
export type RequestParams = Readonly<Record<string, unknown>>;
/** A JSON-RPC error to answer with instead of a result. */
export interface RpcErrorAnswer {
  readonly rpcError: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** The result to answer with, an error, or `hang`: never answer. */
export type Script = (params: RequestParams) => Record<string, unknown> | RpcErrorAnswer | 'hang';

export interface ModernTool {
  readonly name: string;
  readonly inputSchema?: Record<string, unknown>;
  /** Default: a text result naming the tool. */
  readonly script?: Script;
}

export interface ModernPrompt {
  readonly name: string;
  readonly script: Script;
}

export interface ModernRecord {
  readonly id?: number | string;
  readonly method: string;
  readonly params: RequestParams;
  readonly headers: IncomingHttpHeaders;
}

export interface RunningModernServer {
  readonly url: string;
  readonly records: readonly ModernRecord[];
  /** Ids of requests whose connection closed before they were answered. */
  readonly closed: ReadonlyArray<number | string>;
  /** The records of `method` (and of that tool or prompt, when `name` is given). */
  requests(method: string, name?: string): ModernRecord[];
  /** Resolves when `holds()` is true: now, or after the record or close that makes it so. */
  until(holds: () => boolean, what: string): Promise<void>;
  stop(): Promise<void>;
}

interface RpcRequest {
  readonly id?: number | string;
  readonly method: string;
  readonly params?: RequestParams;
}

export async function startModernServer(options: {
  readonly tools?: readonly ModernTool[];
  readonly prompts?: readonly ModernPrompt[];
}): Promise<RunningModernServer> {
  const tools = options.tools ?? [];
  const prompts = options.prompts ?? [];
  const records: ModernRecord[] = [];
  const closed: Array<number | string> = [];
  const changes = new EventEmitter();

  const answer = (message: RpcRequest): Record<string, unknown> | RpcErrorAnswer | 'hang' => {
    const params = message.params ?? {};
    switch (message.method) {
      case 'server/discover':
        return {
          supportedVersions: [MODERN],
          capabilities: prompts.length > 0 ? { tools: {}, prompts: {} } : { tools: {} },
          _meta: {
            'io.modelcontextprotocol/serverInfo': { name: 'modern-fixture', version: '1.0.0' },
          },
        };
      // A 2026 list result says how long it may be cached: here, not at all.
      case 'tools/list':
        return {
          ttlMs: 0,
          cacheScope: 'private',
          tools: tools.map(({ name, inputSchema }) => ({
            name,
            inputSchema: inputSchema ?? { type: 'object' },
          })),
        };
      case 'tools/call': {
        const tool = tools.find(({ name }) => name === params.name);
        return (tool?.script ?? textOf(String(params.name)))(params);
      }
      case 'prompts/list':
        return { ttlMs: 0, cacheScope: 'private', prompts: prompts.map(({ name }) => ({ name })) };
      case 'prompts/get': {
        const prompt = prompts.find(({ name }) => name === params.name);
        return prompt === undefined ? { messages: [] } : prompt.script(params);
      }
      default:
        return {};
    }
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const message = JSON.parse(await readBody(req)) as RpcRequest;
    records.push({
      ...(message.id === undefined ? {} : { id: message.id }),
      method: message.method,
      params: message.params ?? {},
      headers: req.headers,
    });
    changes.emit('change');
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result = answer(message);
    if (result === 'hang') {
      const { id } = message;
      res.on('close', () => {
        closed.push(id);
        changes.emit('change');
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        'rpcError' in result
          ? { jsonrpc: '2.0', id: message.id, error: result.rpcError }
          : { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } },
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    records,
    closed,
    requests: (method, name) =>
      records.filter((r) => r.method === method && (name === undefined || r.params.name === name)),
    until: async (holds, what) => {
      if (holds()) return;
      const signal = AbortSignal.timeout(WAIT_UNTIL_DEFAULT_MS);
      try {
        while (!holds()) await once(changes, 'change', { signal });
      } catch {
        throw new Error(`timed out waiting for ${what}`);
      }
    },
    stop: async () => {
      // Idle keep-alive sockets too: close() would otherwise wait for the client to drop them.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A script that answers with one text block. */
export function textOf(text: string): Script {
  return () => ({ content: [{ type: 'text', text }] });
}
