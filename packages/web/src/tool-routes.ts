// One tool of a server, for the page's "Schema" and "Try":
//
//   GET  /api/mcp/:name/tools/:tool/schema   its input and output schema, whole (ToolSchemas)
//   POST /api/mcp/:name/tools/:tool/call     { "arguments": {...} }: runs it (ToolCallAnswer)
//
// :tool is the tool's name on the server. A call runs the very tool the ToolRegistry offers the
// model (the one `epoch mcp call` runs), by its `execute`: the answer is the result as the model
// is given it, held to the server's max_output_tokens. A server that is down, needs a login or
// fails the call is refused by the runtime itself, and the app's error handler answers with its
// message. The request's AbortSignal is the call's: the page cancels by aborting its fetch, the
// closed connection aborts the signal (@hono/node-server), and the server is sent
// notifications/cancelled, as Ctrl-C does for `epoch mcp call`. A call asked with
// `Accept: application/x-ndjson` is answered as it runs (as-it-runs.ts): the server's latest
// progress report a few times a second (and only when it changed), then the result or the error;
// the page's "Try" shows the progress that way. Both are shown with the server's secrets blanked (McpRegistry.shownResult, shownProgress), as a saved
// result is: a tool that echoes its environment does not put them on the page. A tool withheld because
// its definition changed since approved (README "Pinned tools") is refused, 409 `tool_withheld`,
// before anything is sent. A question the server asks during the call is the page's to answer
// (questions.ts): the body's `call` id links it to this call, for the page that runs it.

import {
  type McpEpochTool,
  type McpServerStatus,
  mcpGroup,
  type Runtime,
  sizeText,
  type ToolContext,
} from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { type ApiError, apiError, sendApiError as send } from './api-errors.js';
import type { ToolCallAnswer, ToolSchemas } from './api-types.js';
import { answerAsItRuns, asksAsItRuns } from './as-it-runs.js';
import { boundedBody, readJsonBody } from './json-body.js';
import type { PendingQuestions } from './questions.js';

// Arguments a person types or pastes into a form; a document pasted whole fits.
const CALL_BYTES = 1024 * 1024;

export interface ToolRouteParts {
  readonly runtime: Runtime;
  readonly questions: PendingQuestions;
}

/** The two routes, to be mounted at /api/mcp. */
export function toolRoutes({ runtime, questions }: ToolRouteParts): Hono {
  const limit = boundedBody(
    CALL_BYTES,
    `The tool was not called: its arguments are over ${sizeText(CALL_BYTES)}.`,
  );

  const routes = new Hono();
  routes.get('/:name/tools/:tool/schema', (c) => {
    const found = findTool(runtime, c.req.param('name'), c.req.param('tool'), 'schema');
    if ('status' in found) return send(c, found);
    const answer: ToolSchemas = {
      inputSchema: found.inputSchema,
      ...(found.outputSchema === undefined ? {} : { outputSchema: found.outputSchema }),
    };
    return c.json(answer);
  });

  routes.post('/:name/tools/:tool/call', limit, async (c) => {
    const read = await readJsonBody(c, 'the arguments');
    if (!read.ok) return send(c, read.error);
    const request = requestOf(read.body);
    if (typeof request === 'string') {
      return send(c, apiError(400, 'invalid_request', `The tool was not called: ${request}.`));
    }
    const found = findTool(runtime, c.req.param('name'), c.req.param('tool'), 'call');
    if ('status' in found) return send(c, found);
    const started = (context: ToolContext): ToolContext => {
      if (request.call !== undefined) questions.linkCall(context, request.call);
      return context;
    };
    if (asksAsItRuns(c)) {
      return answerAsItRuns(c, runtime, found.server, (onProgress) =>
        found.execute(request.args, started({ signal: c.req.raw.signal, onProgress })),
      );
    }
    const result = await found.execute(request.args, started({ signal: c.req.raw.signal }));
    const answer: ToolCallAnswer = { result: runtime.mcp.shownResult(found.server, result) };
    return c.json(answer);
  });
  return routes;
}

type Use = 'schema' | 'call';

/**
 * The tool `tool` (its name on the server) of server `name` as the runtime has it: offered, or for
 * its schema also turned off. A refusal names the server and the tool, and what to do.
 */
function findTool(runtime: Runtime, name: string, tool: string, use: Use): McpEpochTool | ApiError {
  if (runtime.server(name) === undefined) {
    return apiError(404, 'unknown_server', `There is no MCP server "${name}".`);
  }
  // Its definition is not the one approved: neither run nor shown but in the server's changes.
  const withheld = runtime.mcp.withheldOf(name).find((t) => t.name === tool);
  if (withheld !== undefined) {
    return apiError(
      409,
      'tool_withheld',
      `Tool "${tool}" of MCP server "${name}" ${withheld.reason === 'new' ? 'is new' : 'changed'} since its tools were approved, so the model is not offered it: look at it with "tools changed" on the server's card, and approve it there to try it.`,
    );
  }
  const group = mcpGroup(name);
  const offered = runtime.tools
    .entries()
    .filter((entry) => entry.group === group)
    .map((entry) => entry.tool as McpEpochTool);
  const off = runtime.mcp.toolsOffOf(name);
  const match = (t: McpEpochTool) => serverToolName(t) === tool;
  const found = offered.find(match) ?? (use === 'schema' ? off.find(match) : undefined);
  if (found !== undefined) return found;
  if (off.some(match)) {
    return apiError(
      409,
      'tool_off',
      `Tool "${tool}" of MCP server "${name}" is turned off, so the model is not offered it: turn it on with its switch to try it.`,
    );
  }
  const status = runtime.mcp.statuses().find((s) => s.name === name);
  return apiError(
    404,
    'unknown_tool',
    `MCP server "${name}" has no tool "${tool}" now (${knownTools(status, offered.length + off.length)}).`,
  );
}

function knownTools(status: McpServerStatus | undefined, count: number): string {
  if (status?.state === 'disabled') return 'it is turned off: turn it on first';
  if (status?.state === 'needsApproval') {
    return 'it waits for approval and has not been started: approve it on its card first';
  }
  if (count === 0) {
    return `its tools are not known while it is ${status?.state ?? 'not started'}; once it has listed them, try again`;
  }
  return 'the page may be older than its tool list: look at its card again';
}

/** Its name on the server, or list_resources / read_resource for the resource pair. */
function serverToolName(tool: McpEpochTool): string {
  return tool.target.kind === 'tool' ? tool.target.name : tool.target.kind;
}

interface CallRequest {
  readonly args: { readonly [key: string]: unknown };
  readonly call: string | undefined;
}

const CALL_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The body's arguments and call id (ToolCallRequest), or what is wrong with it. */
function requestOf(body: unknown): CallRequest | string {
  const shape = 'give its arguments as one JSON object: { "arguments": { ... } }';
  if (!isObject(body)) return shape;
  const { arguments: args = {}, call } = body as { readonly arguments?: unknown; call?: unknown };
  if (!isObject(args)) return shape;
  if (call !== undefined && (typeof call !== 'string' || !CALL_ID.test(call))) {
    return '"call" is the page\'s id for the call: letters, digits and "-", at most 64';
  }
  return { args, call };
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
