// A server's tools withheld since their definitions were approved (README "Pinned tools"), shown
// and approved from the page:
//
//   GET  /api/mcp/:name/tool-changes    each withheld tool, new or changed, with its definition
//                                       before and after, line by line (ToolChanges)
//   POST /api/mcp/:name/approve-tools   { "tools"?: [{ "name", "hash" }, …] }: approves those, in
//                                       the definitions shown, or (absent) all of them; they are
//                                       offered from then on (ToolsApproved)
//
// Only what the page showed is approved: the approval carries the hash of each definition the
// dialog showed, and the runtime refuses it (409 `tools_changed`) when one of them is another by
// now, as an approval of a server refuses a launch that changed since it was shown. The runtime
// keeps the pins and decides what is withheld; a name it has not, a tool that is not withheld or
// one that changed again it refuses itself, and the app's error handler answers with its code.
import {
  definitionDiff,
  type McpShownTool,
  type McpWithheldTool,
  type Runtime,
  sizeText,
} from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';
import type {
  ApproveToolsRequest,
  ToolChanges,
  ToolsApproved,
  WithheldToolView,
} from './api-types.js';
import { boundedBody, readJsonBody } from './json-body.js';
import type { ViewFeed } from './view-feed.js';

// Tool names and a version each: thousands of tools fit.
const APPROVE_BYTES = 256 * 1024;

export interface ToolChangeRouteParts {
  readonly runtime: Runtime;
  readonly feed: ViewFeed;
}

/** The two routes, to be mounted at /api/mcp. */
export function toolChangeRoutes({ runtime, feed }: ToolChangeRouteParts): Hono {
  const limit = boundedBody(
    APPROVE_BYTES,
    `No tool was approved: the request is over ${sizeText(APPROVE_BYTES)}.`,
  );
  const routes = new Hono();

  routes.get('/:name/tool-changes', (c) => {
    const name = c.req.param('name');
    if (runtime.server(name) === undefined) {
      return send(c, apiError(404, 'unknown_server', `There is no MCP server "${name}".`));
    }
    const answer: ToolChanges = {
      server: name,
      withheld: runtime.mcp.withheldOf(name).map(withheldView),
    };
    return c.json(answer);
  });

  routes.post('/:name/approve-tools', limit, async (c) => {
    const name = c.req.param('name');
    const read = await readJsonBody(c, 'the tools to approve');
    if (!read.ok) return send(c, read.error);
    const request = approveRequest(read.body);
    if (typeof request === 'string') {
      return send(
        c,
        apiError(400, 'invalid_request', `No tool of server "${name}" was approved: ${request}`),
      );
    }
    try {
      const answer: ToolsApproved = { status: await runtime.approveTools(name, request.tools) };
      return c.json(answer);
    } finally {
      feed.changed();
    }
  });

  return routes;
}

function withheldView(tool: McpWithheldTool): WithheldToolView {
  return {
    name: tool.name,
    reason: tool.reason,
    hash: tool.hash,
    lines: definitionDiff(tool.before, tool.after),
  };
}

/** The request, or what is wrong with it (a sentence that ends the refusal's message). */
function approveRequest(body: unknown): ApproveToolsRequest | string {
  const usage =
    'give { "tools": [{ "name": "<tool>", "hash": "<its hash>" }, …] } to approve those as GET …/tool-changes showed them, or {} to approve all of its changed tools.';
  if (!isObject(body)) return usage;
  const { tools } = body as { readonly tools?: unknown };
  if (tools === undefined) return {};
  if (!Array.isArray(tools) || tools.length === 0 || !tools.every(isShownTool)) {
    return `"tools" must give at least one tool, each with its name and hash; ${usage}`;
  }
  return { tools: tools.map(({ name, hash }) => ({ name, hash })) };
}

function isShownTool(value: unknown): value is McpShownTool {
  return (
    isObject(value) &&
    typeof value.name === 'string' &&
    value.name !== '' &&
    typeof value.hash === 'string'
  );
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
