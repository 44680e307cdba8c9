// Finding deferred tools by what a task needs: a full-text index (MiniSearch, BM25 ranking) over
// each tool's name, title, description, parameters (names and descriptions) and server. Words are
// matched by their stems (the Porter stemmer), lower case, snake_case and camelCase split, so
// "deleting files" meets `delete_file`; a query word of three letters or more also matches as the
// start of a longer one ("repo" meets "repository"), one of five or more also when misspelt by a
// letter or two (and, when no tool has it, as the word a tool has one slip from it:
// search-spelling.ts); and a tool's words are indexed with their everyday equivalents in its field
// (tool-vocabulary.ts), so "make a folder" meets `create_directory`. The index's ranking is then
// weighted by what says most about a tool beside its words: whether it does the action the request
// asks (tool-actions.ts), how much of its name the request says, whether it reads or writes as the
// request would, and whether the request names its server. A query is cut and bounded before it is
// searched (search-query.ts), so any query answers in about the same time.
import { serverToolName } from '@epoch-agent/plugin-mcp/config';
import type { EpochTool } from '@epoch-agent/protocol';
import MiniSearch from 'minisearch';
import { MAX_INDEXED_CHARS } from './search-limits.js';
import { intentOf, normalize, queryTerms, SELF_TERM, words } from './search-query.js';
import { correctionsOf } from './search-spelling.js';
import { type Action, actions } from './tool-actions.js';
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
  readonly summary: string;
  readonly parameters: string;
  readonly parameterDescriptions: string;
  readonly server: string;
}

// Boosting names ranked worse on the phrasings of bench/fixtures, whose words are mostly a
// description's. A title most often says the name again ("Create Issue", `create_issue`): counted
// whole, the name's words would count twice against a description's.
const TITLE_BOOST = 0.5;
const FIELDS = [
  'name',
  'title',
  'description',
  'summary',
  'parameters',
  'parameterDescriptions',
  'server',
];
// A description's first sentence says what the tool does; the rest most often says how to call
// it, with examples that name other objects and actions. The first sentence is indexed again on
// its own (`summary`, up to SUMMARY_MAX_CHARS), so its words count about twice the rest's.
const SUMMARY_MAX_CHARS = 300;
// A parameter's description says what a value is ("the channel to post in", "the issue's labels"),
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
// A tool whose name's verb is of the action the request's verb asks (both create, both list…)
// ranks 1.5 times higher: "add a row" wants `create_record` more than `update_record`, though the
// two share every other word.
const ACTION_BOOST = 1.5;
// A tool's name is its most exact summary: a tool ranks up to 1.3 times higher as the request
// says more of its name's words (or their equivalents), so "create a table" ranks `create_table`
// above `create_view_table`, whose longer description may say "table" more often.
const NAME_COVERAGE_BOOST = 0.3;
// A misspelt word (search-spelling.ts) is put right from five letters on, as a near spelling is
// found (FUZZY_MIN_LENGTH), and only when one known word is a slip away: of two, neither is sure.
// The word it stands for counts 0.8, less than one written, more than a near spelling's 0.1.
const SPELLING = { minLength: FUZZY_MIN_LENGTH, max: 1, weight: 0.8 };
// Words that end many tools' names and say nothing of what they do (`distance_tool`).
const NAME_FILLER = new Set(['tool']);

/** The tools of `tools` that best match `query`, best first, at most `limit` of them. */
export class ToolSearch {
  readonly #tools: readonly SearchableTool[];
  readonly #index: MiniSearch<Document>;

  /** The servers each (normalised) word of a server's name names. */
  readonly #serverOf = new Map<string, string[]>();

  /** By tool: the words of its name, each with its equivalents (all normalised). */
  readonly #nameWords: readonly (readonly ReadonlySet<string>[])[];

  /** By tool: the actions it does. */
  readonly #actions: readonly ReadonlySet<Action>[];

  /** Every word the index holds, normalised. */
  readonly #known = new Set<string>();

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
    const documents = tools.map(toDocument);
    this.#index.addAll(documents);
    for (const document of documents) {
      for (const field of FIELDS) {
        for (const word of String(document[field as keyof Document]).split(' ')) {
          const term = normalize(word);
          if (term !== null) this.#known.add(term);
        }
      }
    }
    this.#nameWords = tools.map(nameWords);
    this.#actions = tools.map(({ tool }) => {
      // Most names say their verb (`create_record`); one that names only its object
      // (`workspace_info`) is told by its description's first word ("Gets …", "List …").
      const byName = actionOf(words(ownName(tool)).flatMap((word) => normalize(word) ?? []));
      if (byName.size > 0) return byName;
      return actionOf(
        words(tool.description.slice(0, 100))
          .slice(0, 1)
          .flatMap((word) => normalize(word) ?? []),
      );
    });
  }

  search(query: string, options: { readonly server?: string; readonly limit: number }) {
    const { server, limit } = options;
    const asked = queryTerms(query);
    // A word no tool has, one slip from one some tool has, is searched for as that one too.
    const weight = new Map(asked.weight);
    for (const term of asked.terms) {
      if (weight.get(term) !== 1) continue;
      for (const right of correctionsOf(term, this.#known, SPELLING)) {
        weight.set(right, Math.max(weight.get(right) ?? 0, SPELLING.weight));
      }
    }
    const terms = [...weight.keys()];
    if (terms.length === 0) return [];
    const intent = intentOf(query);
    // Only the request's own words say what it asks; a value's ("'set up redirects'") do not.
    const own = terms.filter((term) => weight.get(term) === 1);
    const asks = actionOf(own);
    const said = new Set(own);
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
        const name = this.#nameWords[id] ?? [];
        const covered = name.filter((alike) => [...alike].some((term) => said.has(term))).length;
        const coverage = name.length === 0 ? 0 : covered / name.length;
        const sameAction = [...(this.#actions[id] ?? [])].some((action) => asks.has(action));
        return (
          (asked ? INTENT_BOOST : 1) *
          (named.has(found.server) ? SERVER_BOOST : 1) *
          (sameAction ? ACTION_BOOST : 1) *
          (1 + NAME_COVERAGE_BOOST * coverage)
        );
      },
      ...(server === undefined ? {} : { filter: (hit) => this.#tools[hit.id]?.server === server }),
    });
    return hits.slice(0, limit).flatMap((hit) => this.#tools[hit.id] ?? []);
  }
}

const related = vocabulary(normalize);
const actionOf = actions(normalize);

/** The server's own name for a tool, not the prefixed one. */
function ownName(tool: EpochTool): string {
  return isMcpTool(tool) ? serverToolName(tool) : tool.name;
}

/** The words of a tool's name but its server's and fillers, each with its equivalents. */
function nameWords({ tool, server }: SearchableTool): ReadonlySet<string>[] {
  const serverWord = normalize(server);
  const terms = new Set(
    words(ownName(tool))
      .flatMap((word) => normalize(word) ?? [])
      .filter((term) => term !== serverWord && !NAME_FILLER.has(term)),
  );
  const equivalents = related(terms);
  return [...terms].map(
    (term) =>
      new Set([term, ...(equivalents.get(term) ?? []).flatMap((word) => normalize(word) ?? [])]),
  );
}

function toDocument({ tool, server }: SearchableTool, id: number): Document {
  // The server's name counts once for each of its tools, in `server`: where a name or description
  // repeats it (the resource tools' do), that tool would outrank the server's others on every
  // query that names the server.
  const serverWord = normalize(server);
  const fields = {
    name: ownName(tool),
    title: tool.title ?? tool.annotations.title ?? '',
    description: tool.description,
    summary: firstSentence(tool.description),
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
  // A name about the user themself (`get_me`, `whoami`, `my_profile`) says so in a word a search
  // drops ("me" is a stop word): it is found by the term a request about who the user is adds.
  const self = words(fields.name).some((word) => SELF_NAME.test(word));
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
    name: `${expand(fieldWords.name)}${self ? ` ${SELF_TERM}` : ''}`,
    title: expand(fieldWords.title),
    description: expand(fieldWords.description),
    summary: expand(fieldWords.summary),
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

const SELF_NAME = /^(?:me|my|myself|self|whoami)$/iu;

/** A description's first sentence (or line), at most SUMMARY_MAX_CHARS of it. */
function firstSentence(text: string): string {
  const [sentence = ''] =
    /^[\s\S]*?(?:[.!?](?=\s)|\n|$)/u.exec(text.slice(0, SUMMARY_MAX_CHARS).trimStart()) ?? [];
  return sentence;
}
