// Finding deferred tools by what a task needs: a full-text index (MiniSearch, BM25+ ranking) over
// each tool's name, title, description, parameter names and server. Words are matched by their
// stems (the Porter stemmer), lower case, snake_case and camelCase split, so "deleting files"
// meets `delete_file`; a query word also matches as the start of a longer one ("repo" meets
// "repository"), and a tool's words are indexed with their everyday equivalents
// (tool-vocabulary.ts), so "make a folder" meets `create_directory`.
import { serverToolName } from '@epoch-agent/plugin-mcp/config';
import type { EpochTool } from '@epoch-agent/protocol';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { isMcpTool } from './tool-name-resolution.js';
import { vocabulary } from './tool-vocabulary.js';

/** A tool that can be found, under the name it is called by, and whose it is. */
export interface SearchableTool {
  /** The model-facing name: `mcp__<server>__<tool>`, or its collision-settled form. */
  readonly tool: EpochTool;
  /** The MCP server (or group) it belongs to. */
  readonly server: string;
}

interface Document {
  readonly id: number;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly parameters: string;
  readonly server: string;
}

// Every field counts alike: boosting names and titles ranked worse on the phrasings of
// bench/fixtures, whose words are mostly a description's.
const FIELDS = ['name', 'title', 'description', 'parameters', 'server'];

/** The tools of `tools` that best match `query`, best first, at most `limit` of them. */
export class ToolSearch {
  readonly #tools: readonly SearchableTool[];
  readonly #index: MiniSearch<Document>;

  constructor(tools: readonly SearchableTool[]) {
    this.#tools = tools;
    this.#index = new MiniSearch<Document>({
      fields: FIELDS,
      tokenize,
      // A tool's words are indexed with the words of their group (tool-vocabulary.ts); a query's
      // are only normalised, so a query word counts once.
      processTerm: (term) => {
        const word = normalize(term);
        return word === null ? null : (SAME_AS.get(word) ?? word);
      },
      searchOptions: {
        // Plain BM25 (no BM25+ floor): the floor lifts a long description that names a word once
        // in passing above a short one that is about it.
        bm25: { k: 1.2, b: 0.7, d: 0 },
        prefix: true,
        fuzzy: false,
        combineWith: 'OR',
        processTerm: normalize,
      },
    });
    this.#index.addAll(tools.map(toDocument));
  }

  search(query: string, options: { readonly server?: string; readonly limit: number }) {
    const { server, limit } = options;
    const hits = this.#index.search(query, {
      ...(server === undefined ? {} : { filter: (hit) => this.#tools[hit.id]?.server === server }),
    });
    return hits.slice(0, limit).flatMap((hit) => this.#tools[hit.id] ?? []);
  }
}

function toDocument({ tool, server }: SearchableTool, id: number): Document {
  // The server's name counts once for each of its tools, in `server`: where a name or description
  // repeats it (the resource tools' do), that tool would outrank the server's others on every
  // query that names the server.
  const serverWord = normalize(server);
  const withoutServer = (text: string) =>
    tokenize(text)
      .filter((word) => normalize(word) !== serverWord)
      .join(' ');
  return {
    id,
    // The server's own name for the tool, not the prefixed one.
    name: withoutServer(isMcpTool(tool) ? serverToolName(tool) : tool.name),
    title: withoutServer(tool.title ?? tool.annotations.title ?? ''),
    description: withoutServer(tool.description),
    parameters: parameterNames(tool.inputSchema).join(' '),
    server,
  };
}

function parameterNames(schema: EpochTool['inputSchema']): string[] {
  const { properties } = schema;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** Words of letters and digits; `readFile`, `read_file` and `read-file` are two words each. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

// Words that say nothing about what a tool does; every description has them.
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i in into is it its me my of on or our ' +
    'please should so some that the their them then there these this to up us use using want ' +
    'was we what when which will with would you your'
  ).split(' '),
);

function normalize(term: string): string | null {
  const word = term.toLowerCase();
  return STOP_WORDS.has(word) ? null : stemmer(word);
}

const SAME_AS = vocabulary(stemmer);
