// A tool's result as a person reads it in a terminal: text as it is but for controls and bidi
// characters, shown visibly (its lines and tabs kept, its length too: it is what was asked for),
// structured content as JSON, and binary content (images, audio, blobs) as a note with its type
// and size, never base64. Blocks the tool meant for the user only (ToolResult.forUser) come
// last, marked "for you": the model is never given them.
import { terminalJson, visibleText } from '@epoch-agent/infra';
import type { ToolContent, ToolResult } from '@epoch-agent/protocol';
import { shownLine } from './server-text.js';

export function renderToolResult(result: ToolResult): string {
  const parts = result.content.map(renderContent);
  if (result.structuredContent !== undefined) {
    parts.push(`structured content:\n${terminalJson(result.structuredContent, 2)}`);
  }
  for (const block of result.forUser ?? []) parts.push(`for you: ${renderContent(block)}`);
  return parts.length === 0 ? '(no content)\n' : `${parts.join('\n')}\n`;
}

function renderContent(content: ToolContent): string {
  switch (content.type) {
    case 'text':
      return output(content.text);
    case 'image':
    case 'audio':
      return `[${content.type} ${content.mimeType}, ${size(content.data)}]`;
    case 'resource': {
      const { uri, mimeType, text, blob } = content.resource;
      const about = `[resource ${shownLine(`${uri}${mimeType === undefined ? '' : ` ${mimeType}`}`)}`;
      if (text !== undefined) return `${about}]\n${output(text)}`;
      return `${about}, ${size(blob ?? '')}]`;
    }
    case 'resource_link': {
      const { name, uri, description } = content;
      return `[link ${shownLine(`${name}: ${uri}`)}]${description === undefined ? '' : ` ${shownLine(description)}`}`;
    }
  }
}

function output(text: string): string {
  return visibleText(text, { lines: true, max: Number.POSITIVE_INFINITY });
}

/** The decoded size of base64 `data`, in bytes or kB. */
function size(data: string): string {
  const bytes = Buffer.byteLength(data, 'base64');
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} kB`;
}
