// A tool's result as the model is given it: each content block in order (text; an image, shown;
// audio, described, since the page's policy plays no data URL; an embedded resource with its text;
// a link to a resource, named and never followed), then the structuredContent, then the blocks
// the tool meant for the user only (`forUser`, which the model never gets), marked "for you", and
// a result the tool marked `isError` shown as an error.
import { visibleText } from '@epoch-agent/infra/visible-text';
import type { ToolContent, ToolResult } from '@epoch-agent/runtime';
import { ScrollText } from './scroll-text.js';
import { serverText } from './text.js';

/**
 * A text of a result or schema, whole: a result is bounded by max_output_tokens already (as for the
 * model), a schema by the tool list's own bound.
 */
export function wholeText(text: string): string {
  return visibleText(text, { lines: true, max: Number.POSITIVE_INFINITY });
}

export function ToolResultView({ result }: { readonly result: ToolResult }) {
  const failed = result.isError === true;
  return (
    <div class={failed ? 'result is-error' : 'result'} data-is-error={String(failed)}>
      {result.content.length === 0 && <p class="empty">No content.</p>}
      {result.content.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      {result.structuredContent !== undefined && (
        <div class="block structured">
          <p class="kind">structuredContent</p>
          <ScrollText text={wholeText(JSON.stringify(result.structuredContent, null, 2))} />
        </div>
      )}
      {(result.forUser ?? []).map((block, index) => (
        <div key={`user-${index}`} class="for-user" data-for-user="true">
          <p class="kind">for you (not given to the model)</p>
          <Block block={block} />
        </div>
      ))}
    </div>
  );
}

function Block({ block }: { readonly block: ToolContent }) {
  switch (block.type) {
    case 'text':
      return (
        <div class="block text">
          <ScrollText text={wholeText(block.text)} />
        </div>
      );
    case 'image':
      return (
        <div class="block image">
          <p class="kind">image, {serverText(block.mimeType)}</p>
          <img
            src={`data:${block.mimeType};base64,${block.data}`}
            alt={`What the tool returned (${serverText(block.mimeType)})`}
          />
        </div>
      );
    case 'audio':
      return (
        <div class="block audio">
          <p class="kind">
            audio, {serverText(block.mimeType)}, {base64Bytes(block.data)} bytes
          </p>
        </div>
      );
    case 'resource': {
      const { uri, mimeType, text, blob } = block.resource;
      return (
        <div class="block resource">
          <p class="kind">
            resource <code>{serverText(uri)}</code>
            {mimeType !== undefined && <>, {serverText(mimeType)}</>}
            {blob !== undefined && <>, {base64Bytes(blob)} bytes</>}
          </p>
          {text !== undefined && <ScrollText text={wholeText(text)} />}
        </div>
      );
    }
    case 'resource_link':
      return (
        <div class="block resource-link">
          <p class="kind">
            link to resource <code>{serverText(block.uri)}</code> ({serverText(block.name)}
            {block.mimeType !== undefined && <>, {serverText(block.mimeType)}</>})
          </p>
          {block.description !== undefined && <p>{serverText(block.description)}</p>}
        </div>
      );
  }
}

/** How many bytes a base64 text holds. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
