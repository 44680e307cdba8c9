// A tool's result and progress reports as a person is shown them (the page's "Try", `epoch mcp
// call`): the server's secret values blanked, as they are in the file a cut result is saved to
// (output-cap.ts). A tool that echoes its environment must not put the expanded `${VAR}`s or the
// env and header values of its entry on a screen, where they are read over a shoulder, pasted into
// an issue or recorded.
import type { Redactor } from '@epoch-agent/infra';
import type { ToolContent, ToolProgress, ToolResult } from '@epoch-agent/protocol';
import { assertNever } from '../types.js';

/** `result` with every secret `redact` knows blanked in its text; its shape is unchanged. */
export function shownResult(result: ToolResult, redact: Redactor): ToolResult {
  const { content, structuredContent, forUser } = result;
  return {
    ...result,
    content: content.map((block) => shownBlock(block, redact)),
    ...(structuredContent === undefined
      ? {}
      : {
          structuredContent: redactStrings(structuredContent, redact) as typeof structuredContent,
        }),
    ...(forUser === undefined
      ? {}
      : { forUser: forUser.map((block) => shownBlock(block, redact)) }),
  };
}

/** `progress` with every secret `redact` knows blanked in its message. */
export function shownProgress(progress: ToolProgress, redact: Redactor): ToolProgress {
  return progress.message === undefined
    ? progress
    : { ...progress, message: redact(progress.message) };
}

/**
 * `block` with every secret `redact` knows blanked in its text. A base64 payload (an image's or
 * audio clip's `data`, a resource's `blob`) is not text a person reads: a secret matched in one by
 * chance would only break the picture.
 */
export function shownBlock(block: ToolContent, redact: Redactor): ToolContent {
  switch (block.type) {
    case 'text':
      return { ...block, text: redact(block.text) };
    case 'image':
    case 'audio':
      return block;
    case 'resource': {
      const { uri, text } = block.resource;
      return {
        ...block,
        resource: {
          ...block.resource,
          uri: redact(uri),
          ...(text === undefined ? {} : { text: redact(text) }),
        },
      };
    }
    case 'resource_link':
      return {
        ...block,
        uri: redact(block.uri),
        name: redact(block.name),
        ...(block.description === undefined ? {} : { description: redact(block.description) }),
      };
    default:
      return assertNever(block, 'content block type');
  }
}

/** Each string of `value` blanked on its own, keys included: an object may be keyed by a secret. */
export function redactStrings(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactStrings(item, redact)]),
    );
  }
  return value;
}
