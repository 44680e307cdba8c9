// Walks a paginated MCP list (tools/list, resources/list, prompts/list) one request per page. The
// SDK's own walk gives every page the options of the first call only in its aggregate path and
// caches the result; doing it here means every page gets the full request options (its own
// `timeout`, the caller's signal), and a server whose nextCursor never ends costs at most
// MAX_PAGES requests.

import type { Logger } from '@epoch-agent/infra';
import type {
  Client,
  Prompt,
  RequestOptions,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/client';
import { LOOSE_TOOLS_PAGE, listedTools } from './listed-tools.js';

/** Pages followed before giving up on a server that keeps answering with a nextCursor. */
export const MAX_PAGES = 50;

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
  /** The cache hints of a 2026-07-28 list (SEP-2549): how long the answer stays fresh, and for whom. */
  readonly ttlMs?: number | undefined;
  readonly cacheScope?: 'public' | 'private' | undefined;
}

export interface CollectPagesOptions<T> {
  readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>;
  /** Called once when MAX_PAGES pages were read and the last still had a nextCursor. */
  readonly onTruncated: () => void;
}

export async function collectPages<T>(options: CollectPagesOptions<T>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await options.fetchPage(cursor);
    // One by one, not push(...): a server's page may hold more items than a call takes arguments.
    for (const item of page.items) items.push(item);
    cursor = page.nextCursor;
    if (cursor === undefined) return items;
  }
  options.onTruncated();
  return items;
}

export interface ListItem {
  readonly 'tools/list': Tool;
  readonly 'prompts/list': Prompt;
  readonly 'resources/list': Resource;
  readonly 'resources/templates/list': ResourceTemplateType;
}

export type ListMethod = keyof ListItem;

/** Whose list it is, for the warning about a list that never ends. */
export interface ListOwner {
  readonly server: string;
  readonly logger: Logger;
}

export type PageFetcher<M extends ListMethod> = (
  sdk: Client,
  cursor: string | undefined,
  options: RequestOptions,
  owner: ListOwner,
) => Promise<Page<ListItem[M]>>;

// Straight to `request`: the SDK's listTools() and its kin walk all pages themselves (with the
// first call's options) and log to the console when a capability is missing.
export const PAGE_FETCHERS: { readonly [M in ListMethod]: PageFetcher<M> } = {
  // Each tool checked on its own (listed-tools.ts): one malformed tool costs that tool, not the
  // server's whole list.
  'tools/list': async (sdk, cursor, options, owner) => {
    const request = { method: 'tools/list', ...cursorParams(cursor) };
    const page = await sdk.request(request, LOOSE_TOOLS_PAGE, options);
    const items = await listedTools(page.tools, owner);
    return { items, nextCursor: page.nextCursor, ...cacheHints(page) };
  },
  'prompts/list': async (sdk, cursor, options) => {
    const page = await sdk.request({ method: 'prompts/list', ...cursorParams(cursor) }, options);
    return { items: page.prompts, nextCursor: page.nextCursor };
  },
  'resources/list': async (sdk, cursor, options) => {
    const page = await sdk.request({ method: 'resources/list', ...cursorParams(cursor) }, options);
    return { items: page.resources, nextCursor: page.nextCursor };
  },
  'resources/templates/list': async (sdk, cursor, options) => {
    const page = await sdk.request(
      { method: 'resources/templates/list', ...cursorParams(cursor) },
      options,
    );
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  },
};

/**
 * Every page of `method`, each a request of its own with the full `options`; a list cut at
 * MAX_PAGES is used as far as it got, with a warning.
 */
export function listAll<M extends ListMethod>(
  sdk: Client,
  method: M,
  options: RequestOptions,
  owner: ListOwner,
): Promise<ListItem[M][]> {
  const page: PageFetcher<M> = PAGE_FETCHERS[method];
  return collectPages({
    fetchPage: (cursor) => page(sdk, cursor, options, owner),
    onTruncated: () => warnTruncated(owner, method),
  });
}

/** A server's ttlMs is honoured up to a day (the SDK's own bound): no list is pinned for good. */
const MAX_TTL_MS = 24 * 60 * 60_000;

export interface ListedTools {
  readonly tools: Tool[];
  /**
   * How long the list stays fresh: the first page's `ttlMs`, at most a day (so a server cannot pin
   * a list for good); undefined when the server gave none (every 2025-era server) or 0, which
   * means "ask again every time".
   */
  readonly ttlMs: number | undefined;
  /** The first page's `cacheScope`; undefined when the server gave none. */
  readonly scope: 'public' | 'private' | undefined;
}

/** Every page of tools/list, as listAll(), with the first page's cache hints. */
export async function listToolPages(
  sdk: Client,
  options: RequestOptions,
  owner: ListOwner,
): Promise<ListedTools> {
  let first: Page<Tool> | undefined;
  const tools = await collectPages({
    fetchPage: async (cursor) => {
      const page = await PAGE_FETCHERS['tools/list'](sdk, cursor, options, owner);
      first ??= page;
      return page;
    },
    onTruncated: () => warnTruncated(owner, 'tools/list'),
  });
  const ttlMs = first?.ttlMs;
  return {
    tools,
    ttlMs: ttlMs !== undefined && ttlMs > 0 ? Math.min(ttlMs, MAX_TTL_MS) : undefined,
    scope: first?.cacheScope,
  };
}

function warnTruncated(owner: ListOwner, method: ListMethod): void {
  owner.logger.warn(
    `MCP server "${owner.server}": ${method} still had a nextCursor after ${MAX_PAGES} pages; using those ${MAX_PAGES} pages and asking no further. The server's pagination may be broken.`,
    { server: owner.server, method },
  );
}

// Cache hints ride on the result body outside the SDK's result types (the loose schema keeps them).
function cacheHints(result: object): Pick<Page<unknown>, 'ttlMs' | 'cacheScope'> {
  const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
  return {
    ttlMs: typeof ttlMs === 'number' && Number.isFinite(ttlMs) ? ttlMs : undefined,
    cacheScope: cacheScope === 'public' || cacheScope === 'private' ? cacheScope : undefined,
  };
}

export function cursorParams(cursor: string | undefined): { params?: { cursor: string } } {
  return cursor === undefined ? {} : { params: { cursor } };
}
