// How many tokens one tool result may put into the model's context (`max_output_tokens`): the
// default, and the most a server entry or a host may set.

/** One result of 100,000 tokens or more would crowd out the conversation; the cap Claude Code uses too. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;

/** Above every model's context window: a cap this high is as good as none, and a typo past it is caught. */
export const MAX_OUTPUT_TOKENS_LIMIT = 10_000_000;
