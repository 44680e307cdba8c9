// One server's MCP tools as EpochTools: names, titles and annotations as the server gave them, calls
// that carry the turn's AbortSignal to the server, and results that keep every kind of content,
// checked against the tool's outputSchema (checked-result.ts), given to the model as one copy
// (one-copy.ts) and held to the server's max_output_tokens (output-cap.ts).
// A server that declares resources also gets a list_resources / read_resource pair: resources are
// read on demand as tools rather than injected into the context, because a server with dozens of
// documents would otherwise cost their tokens on every turn.

import type {
  EpochTool,
  JsonSchema,
  ToolAnnotations,
  ToolContent,
  ToolContext,
  ToolProgress,
  ToolResult,
} from '@epoch-agent/protocol';
import type {
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/client';
import type { McpIcon, McpServerSource } from '../types.js';
import { checkedToolResult } from './checked-result.js';
import { assignToolNames, prefixedName, type ToolNameOptions } from './names.js';
import { modelContent } from './one-copy.js';
import { capToolResult, fitsCap, type ToolOutputCap } from './output-cap.js';
import { resourceListing } from './resource-listing.js';
import { embeddedResource, type ToolCallResult, toToolResult } from './result.js';

/**
 * What the tools need from a connection to one server. `McpClient` implements it; every method
 * sends one request and passes `signal` into that request, so a stop reaches the server as
 * notifications/cancelled.
 */
export interface McpToolBackend {
  /**
   * The SDK's `CallToolResult` fits; so does a result checked by `checkToolCallResult`. `context`:
   * the call's ToolContext, which a question the server asks during the call carries to the host.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: (progress: ToolProgress) => void,
    context?: ToolContext,
  ): Promise<ToolCallResult>;
  /** Every resource the server lists, all pages of resources/list. */
  listResources(signal?: AbortSignal): Promise<readonly Resource[]>;
  /** Every resource template the server lists, all pages of resources/templates/list. */
  listResourceTemplates(signal?: AbortSignal): Promise<readonly ResourceTemplateType[]>;
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
}

/** What an EpochTool of this module calls on its server. */
export type McpToolTarget =
  /** An MCP tool, by its raw name on the server. */
  | { readonly kind: 'tool'; readonly name: string }
  | { readonly kind: 'list_resources' }
  | { readonly kind: 'read_resource' };

/**
 * An EpochTool that remembers the raw identity its model-visible name was derived from, and who
 * configured its server: a permission rule keys on `source` and `server`, never on the name's
 * prefix, which a server of another source could imitate.
 */
export interface McpEpochTool extends EpochTool {
  readonly server: string;
  readonly source: McpServerSource;
  readonly target: McpToolTarget;
  /**
   * Whether its annotations and title may be believed: its server is the host's, or its definition
   * is the one a person approved (pinned); always for list_resources / read_resource, epoch's own.
   */
  readonly annotationsTrusted: boolean;
  /**
   * The tool's output schema as the server sent it; absent when it declares none. Kept for a person
   * who asks for it (the connectors page): no provider takes it, so the model is not sent it.
   */
  readonly outputSchema?: JsonSchema;
  /** The tool's icons as the server sent them; absent when it gave none. */
  readonly icons?: readonly McpIcon[];
  /**
   * The tool's `execution.taskSupport`, as its server's list says it (README "Tools that run as
   * tasks"): `required`, it runs as a task (`tools` and the page mark it); `optional`, a 2025-11-25
   * one is called directly. Absent: none said. A 2026-07-28 server still decides at each call.
   */
  readonly taskSupport?: 'required' | 'optional';
  /** The tool's `_meta` as the server sent it (extensions a host may understand); absent when none. */
  readonly _meta?: { readonly [key: string]: unknown };
  /**
   * The result whole, as `execute` has it before giving the model one copy of it and holding that
   * to the server's max_output_tokens: for a person who asked for all of it (`epoch mcp call`),
   * never for a model. Its structured content is checked against the outputSchema all the same.
   */
  executeUncut(args: { readonly [key: string]: unknown }, ctx: ToolContext): Promise<ToolResult>;
}

export interface ToEpochToolsOptions {
  readonly server: string;
  /** Who configured the server (McpRegistry.connectAll's `source`). */
  readonly source: McpServerSource;
  /** tools/list as the server answered it. */
  readonly tools: readonly Tool[];
  /** The server declared the resources capability. */
  readonly resources: boolean;
  readonly backend: McpToolBackend;
  /** How much of a result the model is given, and where a longer one is kept whole. */
  readonly cap: ToolOutputCap;
  readonly nameOptions?: ToolNameOptions;
  /**
   * Whether a tool's annotations may be believed (see McpEpochTool.annotationsTrusted). Default:
   * only a host's server's.
   */
  readonly annotationsTrusted?: (tool: Tool) => boolean;
}

/**
 * The server's tools, then (when it declares resources) `mcp__<server>__list_resources` and
 * `mcp__<server>__read_resource`. Those two keep their names; a server tool whose name collides
 * with them or with another tool of the server is renamed with its hash (see `assignToolNames`).
 */
export function toEpochTools(options: ToEpochToolsOptions): McpEpochTool[] {
  const { server, source, tools, backend, cap } = options;
  const nameOptions = options.nameOptions ?? {};
  const origin = { server, source };
  const resourceTools = options.resources
    ? resourceToolPair(origin, backend, cap, nameOptions)
    : [];
  const names = assignToolNames({
    server,
    tools: tools.map((tool) => tool.name),
    reserved: resourceTools.map((tool) => tool.name),
    nameOptions,
  });
  const trusted = options.annotationsTrusted ?? (() => source === 'host');
  const mcpTools = tools.map((tool, index) =>
    mcpTool(origin, tool, names[index] as string, backend, cap, trusted(tool)),
  );
  return [...mcpTools, ...resourceTools];
}

// Made for every tool of every server on each connect (10,000 for 100 servers of 100 tools), so
// each is built as one object: no spread of a temporary one per optional field.
function mcpTool(
  { server, source }: Origin,
  tool: Tool,
  name: string,
  backend: McpToolBackend,
  cap: ToolOutputCap,
  annotationsTrusted: boolean,
): McpEpochTool {
  const title = tool.title ?? tool.annotations?.title;
  // Per tool, not per call.
  const origin = `MCP server "${server}" tool "${tool.name}"`;
  const about = { server, tool: tool.name };
  const oneCopy = { outputSchema: tool.outputSchema !== undefined };
  const made: Mutable<McpEpochTool> = {
    name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    annotations: passAnnotations(tool.annotations),
    server,
    source,
    target: { kind: 'tool', name: tool.name },
    annotationsTrusted,
    ...taskSupportOf(tool),
    // Promise chains rather than async functions: a call's answer reaches the model in as few
    // turns of the microtask queue as it takes, with no promise per step that waits for nothing.
    executeUncut(args, ctx) {
      const called = backend.callTool(tool.name, { ...args }, ctx.signal, ctx.onProgress, ctx);
      const schema = tool.outputSchema;
      // No outputSchema (most tools): nothing to load or wait for.
      if (schema === undefined) return called.then((result) => toToolResult(result, origin));
      return called.then((result) => checkedToolResult(schema, result, origin));
    },
    execute(args, ctx) {
      return made.executeUncut(args, ctx).then((whole) => {
        const shown: ToolResult = { ...whole, content: modelContent(whole, oneCopy) };
        return fitsCap(shown, cap) ? shown : capToolResult(shown, cap, about);
      });
    },
  };
  if (title !== undefined) made.title = title;
  if (tool.outputSchema !== undefined) made.outputSchema = tool.outputSchema;
  if (tool.icons !== undefined) made.icons = tool.icons as readonly McpIcon[];
  if (tool._meta !== undefined) made._meta = tool._meta;
  return made;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Whose tools these are: the server and who configured it. */
type Origin = Pick<McpEpochTool, 'server' | 'source'>;

// Absent stays absent: MCP defines a missing hint as unknown, and the permission system must not
// read a server's silence as "not destructive".
function passAnnotations(annotations: Tool['annotations']): ToolAnnotations {
  const passed: Mutable<ToolAnnotations> = {};
  if (annotations === undefined) return passed;
  const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  if (title !== undefined) passed.title = title;
  if (readOnlyHint !== undefined) passed.readOnlyHint = readOnlyHint;
  if (destructiveHint !== undefined) passed.destructiveHint = destructiveHint;
  if (idempotentHint !== undefined) passed.idempotentHint = idempotentHint;
  if (openWorldHint !== undefined) passed.openWorldHint = openWorldHint;
  return passed;
}

// Listing and reading change nothing on the server. openWorldHint stays unknown: what a server's
// resources reach (a local file, a web page) is the server's business.
const RESOURCE_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

function resourceToolPair(
  { server, source }: Origin,
  backend: McpToolBackend,
  cap: ToolOutputCap,
  nameOptions: ToolNameOptions,
): McpEpochTool[] {
  const listName = prefixedName(server, 'list_resources', nameOptions);
  const readName = prefixedName(server, 'read_resource', nameOptions);
  const list: McpEpochTool = {
    name: listName,
    title: `List resources of ${server}`,
    description:
      `List the resources (documents, files, data) that MCP server "${server}" offers. Returns JSON ` +
      '{"resources": [{"uri", "name", "title", "description", "mimeType", "size"}], "note"}. An ' +
      'entry with "uriTemplate" instead of "uri" is a template: fill in its {placeholders} to make ' +
      'a uri. A long list is cut to what one answer holds; then "note" says how many entries were ' +
      'left out: narrow the list with `filter`, or read on with `offset`. ' +
      `Read one with ${readName}.`,
    inputSchema: {
      type: 'object',
      properties: {
        filter: {
          type: 'string',
          description:
            'Words that must all appear (any case) in the uri, name, title, description or mimeType of an entry; omit to list everything.',
        },
        offset: {
          type: 'integer',
          minimum: 0,
          description:
            'Matching entries to skip, as the note of a cut answer says; omit to start at the first.',
        },
      },
      additionalProperties: false,
    },
    annotations: { title: `List resources of ${server}`, ...RESOURCE_ANNOTATIONS },
    server,
    source,
    target: { kind: 'list_resources' },
    annotationsTrusted: true,
    async execute(args, ctx) {
      return capToolResult(await list.executeUncut(args, ctx), cap, {
        server,
        tool: 'list_resources',
      });
    },
    async executeUncut(args, ctx) {
      const { filter, offset } = args;
      if (filter !== undefined && typeof filter !== 'string') {
        return inputError(`${listName}: "filter" must be a string of words, or left out.`);
      }
      if (offset !== undefined && !isCount(offset)) {
        return inputError(
          `${listName}: "offset" must be a whole number of entries to skip (0 or more), or left out.`,
        );
      }
      const [templates, resources] = await Promise.all([
        backend.listResourceTemplates(ctx.signal),
        backend.listResources(ctx.signal),
      ]);
      const listing = resourceListing({ server, templates, resources, filter, offset });
      return { content: [{ type: 'text', text: JSON.stringify(listing) }] };
    },
  };
  const read: McpEpochTool = {
    name: readName,
    title: `Read a resource of ${server}`,
    description:
      `Read one resource of MCP server "${server}" by its uri (from ${listName}). Text comes back ` +
      'as text, binary data as an embedded resource.',
    inputSchema: {
      type: 'object',
      properties: {
        uri: { type: 'string', description: 'The resource uri, e.g. from list_resources.' },
      },
      required: ['uri'],
      additionalProperties: false,
    },
    annotations: { title: `Read a resource of ${server}`, ...RESOURCE_ANNOTATIONS },
    server,
    source,
    target: { kind: 'read_resource' },
    annotationsTrusted: true,
    async execute(args, ctx) {
      return capToolResult(await read.executeUncut(args, ctx), cap, {
        server,
        tool: 'read_resource',
      });
    },
    async executeUncut(args, ctx) {
      const uri = args.uri;
      if (typeof uri !== 'string' || uri === '') {
        return inputError(
          `${readName}: "uri" is required: pass the uri of a resource listed by ${listName}.`,
        );
      }
      const result = await backend.readResource(uri, ctx.signal);
      if (result.contents.length === 0) {
        return {
          content: [
            { type: 'text', text: `MCP server "${server}" returned no contents for ${uri}.` },
          ],
        };
      }
      return {
        content: result.contents.map(
          (contents): ToolContent =>
            'text' in contents
              ? { type: 'text', text: contents.text }
              : { type: 'resource', resource: embeddedResource(contents) },
        ),
      };
    },
  };
  return [list, read];
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

// The model sent arguments the schema forbids; it reads this and tries again.
function inputError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A tool's `execution.taskSupport`, as McpEpochTool carries it (nothing for `forbidden`). */
function taskSupportOf(tool: Tool): Pick<McpEpochTool, 'taskSupport'> {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return support === 'required' || support === 'optional' ? { taskSupport: support } : {};
}
