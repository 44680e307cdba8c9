// Finding deferred tools by what a task needs: a full-text index (MiniSearch, BM25 ranking) over
// each tool's name, title, description, parameters (names and descriptions) and server. Words are
// matched by their stems (the Porter stemmer), lower case, snake_case and camelCase split, so
// "deleting files" meets `delete_file`; a query word of three letters or more also matches as the
// start of a longer one ("repo" meets "repository"), one of five or more also when misspelt by a
// letter or two; and a tool's words are indexed with their everyday equivalents in its field
// (tool-vocabulary.ts), so "make a folder" meets `create_directory`. A query is cut and bounded
// before it is searched (search-query.ts), so any query answers in about the same time.
import { serverToolName } from '@epoch-agent/plugin-mcp/config';
import type { EpochTool } from '@epoch-agent/protocol';
import MiniSearch from 'minisearch';
import { MAX_INDEXED_CHARS } from './search-limits.js';
import { intentOf, normalize, queryTerms, words } from './search-query.js';
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
  readonly parameterDescriptions: string;
  readonly server: string;
}

// Boosting names ranked worse on the phrasings of bench/fixtures, whose words are mostly a
// description's. A title most often says the name again ("Create Issue", `create_issue`): counted
// whole, the name's words would count twice against a description's.
const TITLE_BOOST = 0.5;
const FIELDS = ['name', 'title', 'description', 'parameters', 'parameterDescriptions', 'server'];
// A parameter's description says what a value is ("the channel to post in", "the labels"),
// not what the tool does: its words count half, so they find a tool no other field names, without
// outranking a tool whose own description is about them.
const PARAMETER_DESCRIPTION_BOOST = 0.5;

// A query word matches the words it starts only from three letters on ("is" would start a
// thousand), and a misspelt one only from five (a short word is a letter away from many others).
const PREFIX_MIN_LENGTH = 3;
const FUZZY_MIN_LENGTH = 5;
/** A misspelling of up to a fifth of a word's letters, and never more than two, is forgiven. */
const FUZZY = 0.2;
const MAX_FUZZY = 2;
// How much a word found by its start, or by a near spelling, counts against the word itself
// (MiniSearch's defaults are 0.375 and 0.45): a near spelling counts little, so it finds a tool
// when nothing else does but does not outrank one that has the word as written.
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.1;

// A request to read (a question, "show", "list") ranks the tools that say they only read
// (`readOnlyHint`) higher, and one to change something ("create", "delete", "send") the others:
// by a factor, so that the words still decide between tools of one kind.
const INTENT_BOOST = 1.3;
// A request that names a server ("… in hubspot", "my netlify sites") wants that server's tools:
// they rank 1.5 times higher. A server is named by a word of its name of four letters or more.
const SERVER_BOOST = 1.5;
const SERVER_WORD_MIN_LENGTH = 4;

/** The tools of `tools` that best match `query`, best first, at most `limit` of them. */
export class ToolSearch {
  readonly #tools: readonly SearchableTool[];
  readonly #index: MiniSearch<Document>;

  /** The servers each (normalised) word of a server's name names. */
  readonly #serverOf = new Map<string, string[]>();

  constructor(tools: readonly SearchableTool[]) {
    this.#tools = tools;
    for (const server of new Set(tools.map(({ server }) => server))) {
      for (const word of words(server)) {
        const term = word.length >= SERVER_WORD_MIN_LENGTH ? normalize(word) : null;
        if (term !== null) this.#serverOf.set(term, [...(this.#serverOf.get(term) ?? []), server]);
      }
    }
    this.#index = new MiniSearch<Document>({
      fields: FIELDS,
      tokenize: words,
      processTerm: normalize,
      searchOptions: {
        // Plain BM25 (no BM25+ floor): the floor lifts a long description that names a word once
        // in passing above a short one that is about it. For the same reason a field's length
        // counts nearly whole (b 0.9): a real server's long description lists many objects and
        // examples, and should not match a word as strongly as a short one about it.
        bm25: { k: 1.2, b: 0.9, d: 0 },
        prefix: (term) => term.length >= PREFIX_MIN_LENGTH,
        fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? FUZZY : false),
        maxFuzzy: MAX_FUZZY,
        weights: { fuzzy: FUZZY_WEIGHT, prefix: PREFIX_WEIGHT },
        combineWith: 'OR',
        boost: { title: TITLE_BOOST, parameterDescriptions: PARAMETER_DESCRIPTION_BOOST },
        // A query comes already split and normalised (queryTerms).
        tokenize: (text) => text.split(' '),
        processTerm: (term) => term,
      },
    });
    this.#index.addAll(tools.map(toDocument));
  }

  search(query: string, options: { readonly server?: string; readonly limit: number }) {
    const { server, limit } = options;
    const { terms, weight } = queryTerms(query);
    if (terms.length === 0) return [];
    const intent = intentOf(query);
    // The servers the request names, by a word it counts whole (not a value's).
    const named = new Set(
      terms.flatMap((term) => (weight.get(term) === 1 ? (this.#serverOf.get(term) ?? []) : [])),
    );
    const hits = this.#index.search(terms.join(' '), {
      boostTerm: (term) => weight.get(term) ?? 1,
      boostDocument: (id) => {
        const found = this.#tools[id];
        if (found === undefined) return 1;
        const asked =
          intent !== undefined &&
          (found.tool.annotations.readOnlyHint === true) === (intent === 'read');
        return (asked ? INTENT_BOOST : 1) * (named.has(found.server) ? SERVER_BOOST : 1);
      },
      ...(server === undefined ? {} : { filter: (hit) => this.#tools[hit.id]?.server === server }),
    });
    return hits.slice(0, limit).flatMap((hit) => this.#tools[hit.id] ?? []);
  }
}

const related = vocabulary(normalize);

function toDocument({ tool, server }: SearchableTool, id: number): Document {
  // The server's name counts once for each of its tools, in `server`: where a name or description
  // repeats it (the resource tools' do), that tool would outrank the server's others on every
  // query that names the server.
  const serverWord = normalize(server);
  const fields = {
    // The server's own name for the tool, not the prefixed one.
    name: isMcpTool(tool) ? serverToolName(tool) : tool.name,
    title: tool.title ?? tool.annotations.title ?? '',
    description: tool.description,
    parameters: parameterText(tool.inputSchema, 'names'),
    parameterDescriptions: parameterText(tool.inputSchema, 'descriptions'),
  };
  const fieldWords = Object.fromEntries(
    Object.entries(fields).map(([field, text]) => [
      field,
      words(text.slice(0, MAX_INDEXED_CHARS)).filter((word) => normalize(word) !== serverWord),
    ]),
  ) as Record<keyof typeof fields, string[]>;
  const own = new Set(
    [...Object.values(fieldWords).flat(), server].flatMap((word) => normalize(word) ?? []),
  );
  const equivalents = related(own);
  // Each word is followed by its equivalents, so they count as often as it does.
  const expand = (list: readonly string[]) =>
    list
      .flatMap((word) => {
        const term = normalize(word);
        return [word, ...(term === null ? [] : (equivalents.get(term) ?? []))];
      })
      .join(' ');
  return {
    id,
    name: expand(fieldWords.name),
    title: expand(fieldWords.title),
    description: expand(fieldWords.description),
    parameters: expand(fieldWords.parameters),
    parameterDescriptions: expand(fieldWords.parameterDescriptions),
    server,
  };
}

/** Each parameter's name, or description, in the schema's order. */
function parameterText(schema: EpochTool['inputSchema'], what: 'names' | 'descriptions'): string {
  const { properties } = schema;
  if (typeof properties !== 'object' || properties === null) return '';
  if (what === 'names') return Object.keys(properties).join(' ');
  return Object.values(properties)
    .map((property) => (property as { description?: unknown } | null)?.description)
    .filter((description) => typeof description === 'string')
    .join(' ');
}
