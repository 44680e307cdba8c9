// A server's tools withheld since their definitions were approved (README "Pinned tools"), shown
// and approved from the page:
//
//   GET  /api/mcp/:name/tool-changes    each withheld tool, new or changed, with its definition
//                                       before and after, line by line (ToolChanges)
//   POST /api/mcp/:name/approve-tools   { "tools"?: [...], "seen"?: {...} }: approves them, all or
//                                       the named ones; they are offered from then on (ToolsApproved)
//
// Only what the page showed is approved: the approval carries the `version` of each definition
// the dialog showed, and is refused (409 `tools_changed`) when one of the tools to approve is
// another by now, as an approval of a server refuses a launch that changed since it was shown.
// The runtime keeps the pins and decides what is withheld; a name it has not, or a tool that is not
// withheld, it refuses itself, and the app's error handler answers with its code.
import { createHash } from 'node:crypto';
import {
  definitionDiff,
  type McpToolDefinition,
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
    const changed = changedSinceSeen(runtime.mcp.withheldOf(name), request);
    if (changed.length > 0) {
      return send(
        c,
        apiError(
          409,
          'tools_changed',
          `No tool of server "${name}" was approved: ${changed.map((tool) => JSON.stringify(tool)).join(', ')} changed since shown. Look at the tools again, then approve what they are now.`,
        ),
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
    version: versionOf(tool.after),
    lines: definitionDiff(tool.before, tool.after),
  };
}

/**
 * What names one definition for "approve what was shown": a hash of its text as the diff writes it,
 * with every object's keys sorted, so the same definition listed again in another key order keeps
 * its version.
 */
function versionOf(definition: McpToolDefinition): string {
  const text = definitionDiff(undefined, definition)
    .map((line) => line.text)
    .join('\n');
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The tools to approve (the named ones, else every one withheld now) whose definition is not the
 * version the page saw. None when the request says nothing of what was seen (a script's call).
 */
function changedSinceSeen(
  withheld: readonly McpWithheldTool[],
  { tools, seen }: ApproveToolsRequest,
): string[] {
  if (seen === undefined) return [];
  const asked = tools === undefined ? withheld : withheld.filter((t) => tools.includes(t.name));
  return asked
    .filter((tool) => !Object.hasOwn(seen, tool.name) || seen[tool.name] !== versionOf(tool.after))
    .map((tool) => tool.name);
}

/** The request, or what is wrong with it (a sentence that ends the refusal's message). */
function approveRequest(body: unknown): ApproveToolsRequest | string {
  const usage =
    'give { "tools": ["<tool>", …] } to approve those, or {} to approve all of its changed tools.';
  if (!isObject(body)) return usage;
  const { tools, seen } = body as { readonly tools?: unknown; readonly seen?: unknown };
  if (
    tools !== undefined &&
    (!Array.isArray(tools) ||
      tools.length === 0 ||
      !tools.every((tool) => typeof tool === 'string' && tool !== ''))
  ) {
    return `"tools" must name at least one tool; ${usage}`;
  }
  if (
    seen !== undefined &&
    (!isObject(seen) || !Object.values(seen).every((v) => typeof v === 'string'))
  ) {
    return '"seen" must give each tool shown its version, as GET …/tool-changes answered it.';
  }
  return {
    ...(tools === undefined ? {} : { tools: tools as string[] }),
    ...(seen === undefined ? {} : { seen: seen as Readonly<Record<string, string>> }),
  };
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
