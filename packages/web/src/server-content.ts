// A server's resources and prompts, as the MCP SDK gives them, made into the bounded JSON the page
// reads (server-content-types.ts). Only the fields the page shows are copied, one by one: a
// server's `_meta` or unknown fields never pass through, and every string is cut to a bound. What a
// server reads or makes on request (a resource's contents, a prompt's messages) may say back its
// environment: each such string is shown through `Shown`, which blanks the server's secrets.
import { bounded } from '@epoch-agent/infra';
import type { Runtime } from '@epoch-agent/runtime';
import type {
  ContentView,
  PromptGot,
  PromptList,
  ResourceList,
  ResourceRead,
  ResourceTemplateView,
  ResourceView,
} from './server-content-types.js';

type Registry = Runtime['mcp'];
type Resource = Awaited<ReturnType<Registry['resourcesOf']>>[number];
type ResourceTemplate = Awaited<ReturnType<Registry['resourceTemplatesOf']>>[number];
type ReadResult = Awaited<ReturnType<Registry['readResource']>>;
type Prompt = Awaited<ReturnType<Registry['promptsOf']>>[number];
type GotPrompt = Awaited<ReturnType<Registry['getPrompt']>>;
type MessageContent = GotPrompt['messages'][number]['content'];
/** A server's text as a person may be shown it (Registry['shownText'] for that server). */
export type Shown = (text: string) => string;

/** Entries of one list sent to the page; a server with more is told as `leftOff`. */
export const MAX_ENTRIES = 500;
/** A name, title, URI or description. */
const MAX_LABEL = 2_000;
/** One text content: a long document still reads, a 50 MB log does not reach the page. */
export const MAX_TEXT = 100_000;
/** An image shown as an image (decoded bytes); a larger one is given as its size. */
const MAX_IMAGE_BYTES = 1024 * 1024;
// Raster types only: an SVG is a document, not a picture, and is shown as its size like a blob.
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function resourceList(
  resources: readonly Resource[],
  templates: readonly ResourceTemplate[],
): ResourceList {
  const shown = resources.slice(0, MAX_ENTRIES);
  const shownTemplates = templates.slice(0, MAX_ENTRIES - shown.length);
  return {
    resources: shown.map(resourceView),
    templates: shownTemplates.map(templateView),
    leftOff: resources.length + templates.length - shown.length - shownTemplates.length,
  };
}

export function resourceRead({ contents }: ReadResult, show: Shown): ResourceRead {
  const shown = contents.slice(0, MAX_ENTRIES);
  return {
    contents: shown.map((item) =>
      'text' in item && typeof item.text === 'string'
        ? textView(show(item.text), item.mimeType, show(item.uri))
        : binaryView('blob' in item ? String(item.blob) : '', item.mimeType, show(item.uri)),
    ),
    leftOff: contents.length - shown.length,
  };
}

export function promptList(prompts: readonly Prompt[]): PromptList {
  const shown = prompts.slice(0, MAX_ENTRIES);
  return {
    prompts: shown.map(({ name, prompt }) => ({
      name: label(prompt.name),
      offeredAs: name,
      ...optional('title', prompt.title),
      ...optional('description', prompt.description),
      arguments: (prompt.arguments ?? []).slice(0, MAX_ENTRIES).map((argument) => ({
        name: label(argument.name),
        ...optional('description', argument.description),
        required: argument.required === true,
      })),
    })),
    leftOff: prompts.length - shown.length,
  };
}

export function promptGot(got: GotPrompt, show: Shown): PromptGot {
  const shown = got.messages.slice(0, MAX_ENTRIES);
  return {
    ...optional('description', got.description === undefined ? undefined : show(got.description)),
    messages: shown.map((message) => ({
      role: label(message.role),
      content: messageContent(message.content, show),
    })),
    leftOff: got.messages.length - shown.length,
  };
}

function messageContent(content: MessageContent, show: Shown): ContentView {
  switch (content.type) {
    case 'text':
      return textView(show(content.text));
    case 'image':
    case 'audio':
      return binaryView(content.data, content.mimeType);
    case 'resource': {
      const { resource } = content;
      return 'text' in resource && typeof resource.text === 'string'
        ? textView(show(resource.text), resource.mimeType, show(resource.uri))
        : binaryView(
            'blob' in resource ? String(resource.blob) : '',
            resource.mimeType,
            show(resource.uri),
          );
    }
    case 'resource_link':
      return {
        kind: 'link',
        uri: label(show(content.uri)),
        name: label(show(content.name)),
        ...optional('mimeType', content.mimeType),
      };
    default:
      // A content type of a newer revision: named, so the page can say what it did not show.
      return { kind: 'other', type: label(String((content as { type: unknown }).type)) };
  }
}

function resourceView(resource: Resource): ResourceView {
  return {
    name: label(resource.name),
    ...optional('title', resource.title),
    uri: label(resource.uri),
    ...optional('mimeType', resource.mimeType),
    ...optional('description', resource.description),
  };
}

function templateView(template: ResourceTemplate): ResourceTemplateView {
  return {
    name: label(template.name),
    ...optional('title', template.title),
    uriTemplate: label(template.uriTemplate),
    ...optional('mimeType', template.mimeType),
    ...optional('description', template.description),
  };
}

function textView(text: string, mimeType?: string, uri?: string): ContentView {
  return {
    kind: 'text',
    ...optional('uri', uri),
    ...optional('mimeType', mimeType),
    text: bounded(text, MAX_TEXT),
  };
}

function binaryView(base64: string, mimeType?: string, uri?: string): ContentView {
  const bytes = decodedBytes(base64);
  if (
    mimeType !== undefined &&
    IMAGE_TYPES.has(mimeType) &&
    bytes <= MAX_IMAGE_BYTES &&
    BASE64.test(base64)
  ) {
    return {
      kind: 'image',
      ...optional('uri', uri),
      mimeType,
      bytes,
      dataUrl: `data:${mimeType};base64,${base64}`,
    };
  }
  return { kind: 'binary', ...optional('uri', uri), ...optional('mimeType', mimeType), bytes };
}

/** The size of what `base64` encodes (padding and all whitespace left out). */
function decodedBytes(base64: string): number {
  const length = base64.replace(/[\s=]/g, '').length;
  return Math.floor((length * 3) / 4);
}

function label(text: string): string {
  return bounded(text, MAX_LABEL);
}

/** `{ [key]: value }` bounded, or nothing when the server gave no value. */
function optional<K extends string>(
  key: K,
  value: string | undefined,
): { readonly [P in K]?: string } {
  return (typeof value === 'string' ? { [key]: label(value) } : {}) as { [P in K]?: string };
}
