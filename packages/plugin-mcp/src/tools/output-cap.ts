// A tool result held to what one result may put into the model's context (`max_output_tokens`): a
// longer one is cut there and ends with a note of how much was left out and how to read the rest
// (the reader tool and the result's id, or for a host with no such tool, the file that holds it).
// One result of 100,000 tokens would otherwise crowd the conversation out of a turn. What is
// counted and cut is `content`, the model's one copy (one-copy.ts). `structuredContent` is the
// host's and not counted: a result whose content fits is returned as it is; a cut one keeps it
// when it fits the cap alone. A result that fits reaches the model as the server sent it; a cut one
// is cut from its text with the server's secrets blanked, the text its saved file holds, so no cut
// leaves the start of a secret behind (on the model's copy, and on a page that shows it).
//
// Text is counted with the estimator every package uses (estimateTokens). An image, an audio clip
// or a binary resource is counted as a fixed BINARY_TOKENS, never by the length of its base64: a
// provider charges an image by its pixels, and scales large ones down to about that many. What
// does not fit is left out whole: half an image is no image, and base64 as text is noise.
import {
  CHARS_PER_TOKEN,
  estimateTokens,
  groupedNumber,
  REDACTED,
  type Redactor,
} from '@epoch-agent/infra';
import type { ToolContent, ToolResult } from '@epoch-agent/protocol';
import { type SavedResultName, saveToolResult } from './result-files.js';
import type { McpSavedResults } from './saved-results.js';
import { redactStrings, shownBlock } from './shown-result.js';

/** What an image, audio clip or binary resource counts as (what a provider makes of a large image). */
export const BINARY_TOKENS = 1_600;

/** How one server's results are held to its cap. */
export interface ToolOutputCap {
  /** Read at each call, so that a new `max_output_tokens` takes effect without new tools. */
  readonly maxTokens: () => number;
  /** Where a cut result is kept whole (defaultToolResultsDir). */
  readonly dir: string;
  /** The server's redaction policy: a saved result holds none of the secrets of its config. */
  readonly redact: Redactor;
  /** The saved results a model may read on (McpRegistry.savedResults); none: the note names the file. */
  readonly saved?: McpSavedResults;
}

/**
 * Whether `result` fits the cap as it is (capToolResult would give it back unchanged): checked
 * first on a call's way back, so that a result that fits (nearly every one) takes no promise.
 */
export function fitsCap(result: ToolResult, cap: ToolOutputCap): boolean {
  const maxTokens = cap.maxTokens();
  let total = 0;
  for (const block of result.content) {
    total += tokensOf(block);
    if (total > maxTokens) return false;
  }
  return true;
}

/** `result` as it is when it fits the cap; else cut to it, with the note as its last block. */
export async function capToolResult(
  result: ToolResult,
  cap: ToolOutputCap,
  about: { readonly server: string; readonly tool: string },
): Promise<ToolResult> {
  const maxTokens = cap.maxTokens();
  const { structuredContent } = result;
  // What the note counts: the result as the server sent it.
  const total = sumOf(result.content.map(tokensOf));
  if (total <= maxTokens) return result;
  // Cut from the text the whole is saved as, secrets blanked: cut from the raw text, a secret split
  // by the cut would leave its start behind, and no redactor knows a start for a secret. And what
  // the model is given is then the start of the saved file, so the note's offset is the file's.
  const shown = result.content.map((block) => shownBlock(block, cap.redact));
  const blockTokens = shown.map(tokensOf);
  // Over the cap only by the length of its secrets: it fits whole once they are blanked.
  if (sumOf(blockTokens) <= maxTokens) return { ...result, content: shown };

  // Structured content cannot be cut (half an object no longer matches the tool's output schema):
  // it is kept whole for the host when it fits, or left out.
  const keepStructured =
    structuredContent !== undefined &&
    estimateTokens(JSON.stringify(structuredContent)) <= maxTokens;
  let budget = maxTokens;
  const content: ToolContent[] = [];
  for (const [index, block] of shown.entries()) {
    const tokens = blockTokens[index] as number;
    if (tokens <= budget) {
      content.push(block);
      budget -= tokens;
      continue;
    }
    const cut = cutBlock(block, budget);
    if (cut !== undefined) content.push(cut);
    break;
  }
  const used = content.reduce((sum, block) => sum + tokensOf(block), 0);
  // The first block not kept as it came is either cut or left out; every one after it is left out.
  const whole = content.filter((block, index) => block === shown[index]).length;
  const saved = await saveWhole(result, shown, cap, about);
  const note = [
    `[Cut to fit: this result is about ${count(total)} tokens, more than the ${count(maxTokens)} one result of MCP server "${about.server}" may take (its max_output_tokens).`,
    `About ${count(total - used)} tokens are left out${blocks(result.content.length - whole, result.content.length)}.`,
    readOn(saved, cap, about, maxTokens, textOnly(result) ? charsShown(content) : 0),
  ].join(' ');
  return {
    content: [...content, { type: 'text', text: note }],
    ...(keepStructured ? { structuredContent } : {}),
    ...(result.forUser === undefined ? {} : { forUser: result.forUser }),
    ...(result.isError === undefined ? {} : { isError: result.isError }),
  };
}

/** The note's last sentence: how the rest is read, by the model itself when it has a reader. */
function readOn(
  saved: { readonly file: string } | { readonly failure: string },
  cap: ToolOutputCap,
  about: { readonly server: string; readonly tool: string },
  maxTokens: number,
  offset: number,
): string {
  if ('failure' in saved) {
    return `The whole result could not be saved to a file (${saved.failure}); call the tool again asking for less.]`;
  }
  const reader = cap.saved?.reader;
  if (cap.saved === undefined || reader === undefined) {
    return `The whole result is saved in ${saved.file}: search or read the parts you need there rather than all of it, or call the tool again asking for less.]`;
  }
  const { id } = cap.saved.add(saved.file, { ...about, maxTokens });
  return `The whole result is saved as result "${id}": read the rest with the tool ${reader} and {"id": "${id}", "offset": ${offset}}, a piece at a time, or call the tool again asking for less.]`;
}

/** Whether the saved file is the content's text alone (a .txt), so offsets in it are the text's. */
function textOnly(result: ToolResult): boolean {
  return result.content.every((block) => block.type === 'text');
}

/** How far into the saved text the model has read: its kept blocks, joined as saveWhole joins them. */
function charsShown(content: readonly ToolContent[]): number {
  return content.reduce(
    (sum, block, index) => sum + (index === 0 ? 0 : 1) + (block as { text: string }).text.length,
    0,
  );
}

function sumOf(tokens: readonly number[]): number {
  return tokens.reduce((sum, each) => sum + each, 0);
}

function tokensOf(block: ToolContent): number {
  switch (block.type) {
    case 'text':
      return estimateTokens(block.text);
    case 'image':
    case 'audio':
      return BINARY_TOKENS;
    case 'resource': {
      const { uri, text } = block.resource;
      return text === undefined ? BINARY_TOKENS : estimateTokens(uri) + estimateTokens(text);
    }
    case 'resource_link':
      return estimateTokens(JSON.stringify(block));
  }
}

/** The start of a text (a text resource's too) within `budget`; undefined when none of it fits. */
function cutBlock(block: ToolContent, budget: number): ToolContent | undefined {
  if (block.type === 'text') {
    const text = cutText(block.text, budget);
    return text === '' ? undefined : { type: 'text', text };
  }
  if (block.type === 'resource' && block.resource.text !== undefined) {
    const text = cutText(block.resource.text, budget - estimateTokens(block.resource.uri));
    return text === '' ? undefined : { type: 'resource', resource: { ...block.resource, text } };
  }
  return undefined;
}

function cutText(text: string, budget: number): string {
  if (budget <= 0) return '';
  let cut = text.slice(0, budget * CHARS_PER_TOKEN);
  // Half a surrogate pair is not a character: a provider rejects the string or shows garbage.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  // Nor half a `<redacted>`: the model reads the marker whole at the offset the note gives.
  for (let part = REDACTED.length - 1; part > 0; part--) {
    if (cut.endsWith(REDACTED.slice(0, part)) && text.startsWith(REDACTED, cut.length - part)) {
      return cut.slice(0, -part);
    }
  }
  return cut;
}

/**
 * The whole of what the model gets, secrets blanked: as text when it is only text (the texts
 * joined by a line break), else as JSON with the structured content beside it.
 */
async function saveWhole(
  result: ToolResult,
  shown: readonly ToolContent[],
  cap: ToolOutputCap,
  about: { readonly server: string; readonly tool: string },
): Promise<{ readonly file: string } | { readonly failure: string }> {
  const text = textOnly(result);
  const name: SavedResultName = { ...about, extension: text ? 'txt' : 'json' };
  const { content, structuredContent } = result;
  const data = text
    ? shown.map((block) => (block as { text: string }).text).join('\n')
    : JSON.stringify(redactStrings({ content, structuredContent }, cap.redact), null, 2);
  try {
    return { file: await saveToolResult(cap.dir, name, data) };
  } catch (error) {
    // Its code only: the message names paths, and says nothing the model can act on.
    const code = (error as NodeJS.ErrnoException).code;
    return { failure: typeof code === 'string' ? code : 'an unknown error' };
  }
}

// Each string on its own, before JSON escapes it: a secret with a quote or a backslash in it would
// no longer be found in the escaped text.
/** ": 1 of its 1 content block is cut or left out", ": 3 of its 5 content blocks are …"; or nothing. */
function blocks(notWhole: number, all: number): string {
  if (notWhole === 0) return '';
  return `: ${notWhole} of its ${all} content block${all === 1 ? '' : 's'} ${notWhole === 1 ? 'is' : 'are'} cut or left out`;
}

function count(tokens: number): string {
  return groupedNumber(tokens);
}
