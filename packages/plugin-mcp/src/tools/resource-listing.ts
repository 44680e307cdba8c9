// What list_resources answers the model: one server's whole list of resource templates and
// resources (every page already read), narrowed by the model's filter and cut to what one answer
// can carry. The model never sees an MCP cursor: what it cannot see is counted, and the note says
// how to narrow the list (filter) or read on (offset), both of which it can use without knowing
// how the server pages.

import type { Resource, ResourceTemplateType } from '@modelcontextprotocol/client';

/**
 * About how many characters of entries one answer carries (some 5,000 tokens): enough for a
 * couple of hundred short entries, and a server with thousands of documents does not flood the
 * turn. At least one entry is always shown, however long.
 */
export const LISTING_BUDGET_CHARS = 20_000;

interface EntryCommon {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly mimeType?: string | undefined;
}

/** An entry as the model sees it: the fields it needs to pick one; icons and _meta only cost tokens. */
export type ListingEntry =
  | (EntryCommon & { readonly uriTemplate: string })
  | (EntryCommon & { readonly uri: string; readonly size?: number | undefined });

export interface ResourceListing {
  readonly resources: readonly ListingEntry[];
  /** Present when the answer is not the whole list: what was left out and how to get at it. */
  readonly note?: string;
}

export interface ResourceListingOptions {
  readonly server: string;
  readonly templates: readonly ResourceTemplateType[];
  readonly resources: readonly Resource[];
  /** Words that must all appear (any case) in an entry's uri, name, title, description or mimeType. */
  readonly filter?: string | undefined;
  /** Matching entries to skip. */
  readonly offset?: number | undefined;
}

/**
 * Templates come first: a server's few templates reach whole families of resources, and behind
 * hundreds of concrete resources they would be the first thing a cut hides.
 */
export function resourceListing(options: ResourceListingOptions): ResourceListing {
  const all: ListingEntry[] = [
    ...options.templates.map(templateEntry),
    ...options.resources.map(resourceEntry),
  ];
  if (all.length === 0) return { resources: [] };
  const terms = (options.filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matching = terms.length === 0 ? all : all.filter((entry) => matches(entry, terms));
  const offset = options.offset ?? 0;
  const filtered = terms.length === 0 ? '' : ` matching filter ${JSON.stringify(options.filter)}`;
  const of = `MCP server "${options.server}"`;
  if (matching.length === 0) {
    return {
      resources: [],
      note: `No entry of ${of} matches filter ${JSON.stringify(options.filter)} (it lists ${all.length} in all). Try fewer or other words, or leave filter out.`,
    };
  }
  if (offset >= matching.length) {
    return {
      resources: [],
      note: `offset ${offset} is past the end: ${of} has ${matching.length} entries${filtered}. Pass an offset below ${matching.length}, or leave it out to start at the first.`,
    };
  }
  const shown = fit(matching.slice(offset), LISTING_BUDGET_CHARS);
  const end = offset + shown.length;
  if (offset === 0 && end === matching.length) return { resources: shown };
  const left = matching.length - end;
  const range = `Showing entries ${offset + 1}-${end} of ${matching.length}${filtered}`;
  const more =
    left === 0
      ? '.'
      : `; ${left} more are not shown. To narrow the list, pass filter with words from the uri, name or description of what you look for; to read on, call again with offset ${end}.`;
  return { resources: shown, note: `${range}${more}` };
}

/** The longest prefix of `entries` whose JSON stays within `budget`; never empty. */
function fit(entries: readonly ListingEntry[], budget: number): ListingEntry[] {
  const shown: ListingEntry[] = [];
  let used = 0;
  for (const entry of entries) {
    used += JSON.stringify(entry).length + 1;
    if (used > budget && shown.length > 0) break;
    shown.push(entry);
  }
  return shown;
}

function matches(entry: ListingEntry, terms: readonly string[]): boolean {
  const where = 'uri' in entry ? entry.uri : entry.uriTemplate;
  const text = [where, entry.name, entry.title, entry.description, entry.mimeType]
    .filter((part) => part !== undefined)
    .join('\n')
    .toLowerCase();
  return terms.every((term) => text.includes(term));
}

function templateEntry(template: ResourceTemplateType): ListingEntry {
  const { uriTemplate, name, title, description, mimeType } = template;
  return { uriTemplate, name, title, description, mimeType };
}

function resourceEntry(resource: Resource): ListingEntry {
  const { uri, name, title, description, mimeType, size } = resource;
  return { uri, name, title, description, mimeType, size };
}
