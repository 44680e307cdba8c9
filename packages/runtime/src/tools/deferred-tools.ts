// The two tools that stand for every deferred tool: `mcp_search_tools` finds them by what a task
// needs and hands back their full definitions, `mcp_call_tool` runs one by its name. They are the
// same two objects for as long as the ToolRegistry lives and look the deferred tools up when they
// are called, never when they were handed out: an agent loop's tool set is fixed when the loop is
// built, so a tool deferred after that is still found, and a server that left is not.
//
// A call runs the deferred tool's own execute, so it is that tool's call in every way: its
// server's timeout, notifications/cancelled on a stop, its results, errors and redaction. And
// `delegate` tells a permission system which tool that is, before anything runs.
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { searchAnswer } from './search-answer.js';
import { MAX_QUERY_CHARS } from './search-limits.js';
import type { SearchableTool } from './tool-search.js';

export const SEARCH_TOOL_NAME = 'mcp_search_tools';
export const CALL_TOOL_NAME = 'mcp_call_tool';

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

/** What the two tools look up at each call. */
export interface DeferredTools {
  /** The deferred tools that best match `query`, best first (see tool-search.ts). */
  search(
    query: string,
    options: { readonly server?: string; readonly limit: number },
  ): Promise<readonly SearchableTool[]>;
  /** The deferred tool called by that name now. */
  get(name: string): EpochTool | undefined;
  /** Whether that name is a tool offered one by one: the model should call it directly. */
  isOffered(name: string): boolean;
}

export function searchTool(current: () => DeferredTools): EpochTool {
  return {
    name: SEARCH_TOOL_NAME,
    title: 'Search MCP tools',
    description:
      'Some MCP tools are not listed here, to save context: find them by what you need to do. ' +
      'Query with English keywords of the action and the object, e.g. "create issue", ' +
      '"list files", "send message" (not a whole sentence, and not the values you will pass). ' +
      'Returns the best matching tools, each with its name, server, title, description, ' +
      `annotations and input schema; run one with ${CALL_TOOL_NAME} and that name. ` +
      'Search again with other words when none fits.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'English keywords of the action and its object, e.g. "create github issue" ' +
            `(at most ${MAX_QUERY_CHARS} characters are read).`,
        },
        server: {
          type: 'string',
          description: 'Only tools of this MCP server; omit to search every server.',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_LIMIT,
          description: `How many tools at most (default ${DEFAULT_LIMIT}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    // Searching reads an index in this process and changes nothing anywhere.
    annotations: {
      title: 'Search MCP tools',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async execute(args) {
      const { query, server, limit = DEFAULT_LIMIT } = args;
      if (typeof query !== 'string' || query.trim() === '') {
        return inputError(`${SEARCH_TOOL_NAME}: "query" is required: say what the tool should do.`);
      }
      if (server !== undefined && typeof server !== 'string') {
        return inputError(`${SEARCH_TOOL_NAME}: "server" must be a server's name, or left out.`);
      }
      if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT) {
        return inputError(
          `${SEARCH_TOOL_NAME}: "limit" must be a whole number from 1 to ${MAX_LIMIT}, or left out.`,
        );
      }
      const found = await current().search(query, {
        ...(server === undefined ? {} : { server }),
        limit: limit as number,
      });
      const note =
        found.length === 0
          ? `No deferred tool matches${server === undefined ? '' : ` on server "${server}"`}; try other words.`
          : `Run one with ${CALL_TOOL_NAME}: {"name": <its name>, "arguments": {…}}.`;
      return { content: [{ type: 'text', text: searchAnswer(found, note) }] };
    },
  };
}

export function callTool(current: () => DeferredTools): EpochTool {
  return {
    name: CALL_TOOL_NAME,
    title: 'Call an MCP tool',
    description:
      `Run an MCP tool found with ${SEARCH_TOOL_NAME}, by the name the search gave, with ` +
      'arguments that follow its input schema.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: `The tool's name, as ${SEARCH_TOOL_NAME} gave it.` },
        arguments: {
          type: 'object',
          description: "The tool's arguments, following its input schema.",
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    // It runs any deferred tool, a destructive one too, so it claims nothing safe about itself: a
    // permission system that does not know `delegate` treats it as the most dangerous of them.
    annotations: {
      title: 'Call an MCP tool',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    delegate(args) {
      return typeof args.name === 'string' ? current().get(args.name) : undefined;
    },
    async execute(args, ctx) {
      const { name, arguments: toolArgs = {} } = args;
      if (typeof name !== 'string' || name === '') {
        return inputError(
          `${CALL_TOOL_NAME}: "name" is required: the name of a tool ${SEARCH_TOOL_NAME} found.`,
        );
      }
      if (toolArgs === null || typeof toolArgs !== 'object' || Array.isArray(toolArgs)) {
        return inputError(
          `${CALL_TOOL_NAME}: "arguments" must be an object of the tool's arguments, or left out.`,
        );
      }
      const deferred = current();
      const tool = deferred.get(name);
      if (tool === undefined) {
        return inputError(
          deferred.isOffered(name)
            ? `${CALL_TOOL_NAME}: "${name}" is offered as a tool of its own: call it directly.`
            : `${CALL_TOOL_NAME}: there is no MCP tool "${name}" to call now; find one with ${SEARCH_TOOL_NAME}.`,
        );
      }
      return tool.execute(toolArgs as { readonly [key: string]: unknown }, ctx);
    },
  };
}

// The model sent arguments the schema forbids; it reads this and tries again.
function inputError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
