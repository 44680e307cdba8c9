// How many tokens a text takes in a model's context, estimated the one way every package counts
// them: characters / 4, the usual rule of thumb for English and JSON. A tokenizer of a given model
// differs by a few percent, which is not what any decision made with this number turns on (whether
// 100 tools are too many, whether a tool result must be cut).

/** Characters per token. */
export const CHARS_PER_TOKEN = 4;

/** About how many tokens `text` takes; 0 only for an empty text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
