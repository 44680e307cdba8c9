// The one policy for what of a ToolResult reaches a model, shared by every adapter: each content
// kind becomes text, an image, an audio clip or a file, as far as the provider can take that kind
// in (or next to) a tool result, and a short note in the text where it cannot. Each adapter then
// writes the parts in its own API's blocks.
//
//   text                       as it is (an empty one is left out: providers refuse empty blocks)
//   image, audio               as media when the provider takes its type, else a note
//   resource_link              a line naming it: name, uri, MIME type, description
//   resource (text)            its text under a line naming its uri and MIME type
//   resource (blob)            decoded to text when its type is text (text/*, JSON, XML); else
//                              an image or a file when the provider takes its type, or a note
//   structuredContent          one copy of the result (plugin-mcp's modelContent, the rule
//                              EpochTool.execute follows too): the text when there is text (a
//                              ToolResult says no outputSchema), else its JSON as text
//   a block for the user only  left out (`annotations.audience` without "assistant"); and
//   forUser                    never read: it is the host's to show
//   isError                    the adapter's own error flag, or a first line saying so
import { modelContent } from '@epoch-agent/plugin-mcp';
import type { ToolContent, ToolResult } from '@epoch-agent/protocol';

export type TextPart = { readonly kind: 'text'; readonly text: string };

export type MediaPart =
  | { readonly kind: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly kind: 'audio'; readonly data: string; readonly mimeType: string }
  | {
      readonly kind: 'file';
      readonly data: string;
      readonly mimeType: string;
      readonly filename: string;
    };

export type MediaKind = MediaPart['kind'];

/** The parts an API that takes the media kinds `K` is given. */
export type ResultPart<K extends MediaKind = MediaKind> =
  | TextPart
  | Extract<MediaPart, { kind: K }>;

/** What one API takes in a tool result, by kind and MIME type; everything else becomes a note. */
export interface MediaSupport<K extends MediaKind> {
  /** The API, for the note: "OpenAI Chat Completions". */
  readonly api: string;
  readonly takes: { readonly [kind in K]: (mimeType: string) => boolean };
}

/** The image types every adapter's API takes in a tool result (or next to one). */
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/** The first line of a failed result's text, for an API with no error flag of its own. */
export const TOOL_ERROR_LINE = 'The tool reported an error:';

export function resultParts<K extends MediaKind>(
  result: ToolResult,
  support: MediaSupport<K>,
): ResultPart<K>[] {
  // An MCP tool's execute gave one copy already (knowing its outputSchema); this keeps it as it
  // is, and gives any other tool's result the same rule.
  return modelContent(result, { outputSchema: false }).flatMap((block) =>
    contentParts(block, support),
  ) as ResultPart<K>[];
}

/** What `contentParts` asks of an API: a kind it has no entry for, it never takes. */
interface Takes {
  readonly api: string;
  readonly takes: { readonly [kind in MediaKind]?: (mimeType: string) => boolean };
}

function contentParts(block: ToolContent, support: Takes): ResultPart[] {
  const takes = (kind: MediaKind, mimeType: string): boolean =>
    support.takes[kind]?.(mimeType) === true;
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [{ kind: 'text', text: block.text }];
    case 'image':
    case 'audio':
      if (takes(block.type, block.mimeType)) {
        return [{ kind: block.type, data: block.data, mimeType: block.mimeType }];
      }
      return [note(block.type, block.mimeType, block.data, support)];
    case 'resource_link':
      return [
        {
          kind: 'text',
          text: `Resource link: ${block.name} ${block.uri}${mime(block.mimeType)}${block.description === undefined ? '' : `: ${block.description}`}`,
        },
      ];
    case 'resource': {
      const { uri, mimeType, text, blob } = block.resource;
      if (text !== undefined)
        return [{ kind: 'text', text: `Resource ${uri}${mime(mimeType)}:\n${text}` }];
      const type = mimeType ?? 'application/octet-stream';
      const data = blob ?? '';
      if (isTextType(type)) {
        const decoded = Buffer.from(data, 'base64').toString('utf8');
        return [{ kind: 'text', text: `Resource ${uri}${mime(mimeType)}:\n${decoded}` }];
      }
      if (takes('image', type)) return [{ kind: 'image', data, mimeType: type }];
      if (takes('file', type))
        return [{ kind: 'file', data, mimeType: type, filename: fileName(uri) }];
      return [note(`resource ${uri}`, type, data, support)];
    }
  }
}

// Text sent as a blob is still text: every API takes it, as text.
function isTextType(mimeType: string): boolean {
  return (
    mimeType.startsWith('text/') ||
    /^application\/(json|xml|javascript|yaml)$/.test(mimeType) ||
    /\+(json|xml)$/.test(mimeType)
  );
}

function mime(mimeType: string | undefined): string {
  return mimeType === undefined ? '' : ` (${mimeType})`;
}

function note(what: string, mimeType: string, base64: string, support: Takes): ResultPart {
  const bytes = Math.floor((base64.length * 3) / 4);
  return {
    kind: 'text',
    text: `[${what} of type ${mimeType} (${bytes} bytes) is not shown: ${support.api} takes no ${mimeType} here]`,
  };
}

/** The last segment of the uri, which a provider shows the model as the file's name. */
function fileName(uri: string): string {
  const last = uri
    .split(/[/\\]/)
    .filter((segment) => segment !== '')
    .at(-1);
  return last === undefined || last.includes(':') ? 'resource' : last;
}

/** A data: URL of base64 data, as OpenAI's image and file inputs take it. */
export function dataUrl(part: { readonly data: string; readonly mimeType: string }): string {
  return `data:${part.mimeType};base64,${part.data}`;
}
