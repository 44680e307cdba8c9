// Every bound of mcp_search_tools in one place: what a query may cost and what an answer may
// hold. A query is the model's own argument and a deferred tool's definition is a server's, so
// neither is trusted to be small; EMBEDDING.md ("Tools found on demand") lists these figures.

/**
 * A query is cut to this many characters before anything else is done with it: a task is said in
 * a few words, and a search's time and memory grow with its terms (each is looked up in the index,
 * a long one with its prefixes and near spellings too).
 */
export const MAX_QUERY_CHARS = 500;

/** At most this many distinct terms of a query are searched for, the first ones it names. */
export const MAX_QUERY_TERMS = 24;

/**
 * Of a tool's description and of its parameters' names and descriptions, this many characters are
 * indexed: what a tool does is said at the start, and a server's 10 MB description must not make
 * the index (or its build) that large.
 */
export const MAX_INDEXED_CHARS = 4_000;

/** A found tool's description is cut to this many characters, with a note of how many more. */
export const MAX_DESCRIPTION_CHARS = 2_000;

/**
 * A found tool's input schema (without `$schema`) up to this many characters of JSON is given
 * whole; a larger one is summarised within as many: its parameters' names, types and the starts
 * of their descriptions, which are required, and a note saying so.
 */
export const MAX_SCHEMA_CHARS = 6_000;

/**
 * The whole answer stays within this many tokens (infra's estimateTokens): the found tools are
 * given best first while they fit, and the answer says how many more were found.
 */
export const MAX_ANSWER_TOKENS = 10_000;
