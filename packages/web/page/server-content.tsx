// A connected server's resources and prompts on its card, each behind a disclosure that loads
// them when it is opened (never in the live view: a list may be long, and asking costs the server
// a request): resources and templates with their URI and type, each readable; prompts with their
// arguments, each got with the values typed in. What the server sent is shown as text (escaped,
// bounded by the API), an image as an image, other binary contents as their size and type.
import { visibleText } from '@epoch-agent/infra/visible-text';
import { useState } from 'preact/hooks';
import type { ServerView } from '../src/api-types.js';
import type {
  ContentView,
  PromptGot,
  PromptList,
  PromptView,
  ResourceList,
  ResourceRead,
  ResourceView,
} from '../src/server-content-types.js';
import type { Api, ApiResult } from './api.js';
import { ScrollText } from './scroll-text.js';
import { serverText } from './text.js';

interface Props {
  readonly server: ServerView;
  readonly api: Api;
  /** The server's API paths start here (`/api/mcp/<name>`). */
  readonly path: string;
}

export function ServerContent({ server, api, path }: Props) {
  const { status } = server;
  if (status?.state !== 'connected') return null;
  const { resources, prompts } = status.capabilities;
  return (
    <>
      {resources !== undefined && (
        <OnDemand<ResourceList>
          class="resources"
          title="Resources"
          load={() => api.call('GET', `${path}/resources`)}
          show={(list) => <Resources list={list} api={api} path={path} />}
        />
      )}
      {prompts !== undefined && (
        <OnDemand<PromptList>
          class="prompts"
          title="Prompts"
          load={() => api.call('GET', `${path}/prompts`)}
          show={(list) => <Prompts list={list} api={api} path={path} />}
        />
      )}
    </>
  );
}

type Loaded<T> =
  | { readonly kind: 'closed' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'loaded'; readonly value: T }
  | { readonly kind: 'failed'; readonly message: string };

interface OnDemandProps<T> {
  readonly class: string;
  readonly title: string;
  readonly load: () => Promise<ApiResult<T>>;
  readonly show: (value: T) => preact.ComponentChild;
}

/** A disclosure whose contents are loaded each time it is opened, so they are never stale. */
function OnDemand<T>({ class: className, title, load, show }: OnDemandProps<T>) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ kind: 'closed' });
  const toggled = async (event: Event) => {
    const details = event.currentTarget as HTMLDetailsElement;
    if (!details.open) {
      setLoaded({ kind: 'closed' });
      return;
    }
    setLoaded({ kind: 'loading' });
    const result = await load();
    // Closed while the server was asked: what it answered is not wanted any more.
    if (!details.open) return;
    setLoaded(
      result.ok
        ? { kind: 'loaded', value: result.value }
        : { kind: 'failed', message: result.error.message },
    );
  };
  return (
    <details class={`content ${className}`} onToggle={toggled}>
      <summary>{title}</summary>
      {loaded.kind === 'loading' && <p class="hint">Asking the server…</p>}
      {loaded.kind === 'failed' && <p class="problem">{serverText(loaded.message)}</p>}
      {loaded.kind === 'loaded' && show(loaded.value)}
    </details>
  );
}

function Resources({ list, api, path }: { list: ResourceList; api: Api; path: string }) {
  if (list.resources.length === 0 && list.templates.length === 0) {
    return <p class="hint">The server lists no resources.</p>;
  }
  return (
    <>
      <ul>
        {list.resources.map((resource) => (
          <ResourceRow key={resource.uri} resource={resource} api={api} path={path} />
        ))}
        {list.templates.map((template) => (
          <li key={template.uriTemplate} class="template">
            <Named name={template.name} title={template.title} />{' '}
            <code>{serverText(template.uriTemplate)}</code>
            {template.mimeType !== undefined && <Type mime={template.mimeType} />} (a template: a
            URI made from it names a resource)
            {template.description !== undefined && (
              <p class="description">{serverText(template.description)}</p>
            )}
          </li>
        ))}
      </ul>
      <LeftOff count={list.leftOff} what="resources" />
    </>
  );
}

function ResourceRow({ resource, api, path }: { resource: ResourceView; api: Api; path: string }) {
  const [read, setRead] = useState<Loaded<ResourceRead>>({ kind: 'closed' });
  const readIt = async () => {
    if (read.kind === 'loading') return;
    setRead({ kind: 'loading' });
    const result = await api.call<ResourceRead>(
      'GET',
      `${path}/resources/read?uri=${encodeURIComponent(resource.uri)}`,
    );
    setRead(
      result.ok
        ? { kind: 'loaded', value: result.value }
        : { kind: 'failed', message: result.error.message },
    );
  };
  const name = serverText(resource.title ?? resource.name);
  return (
    <li class="resource" data-uri={resource.uri}>
      <Named name={resource.name} title={resource.title} /> <code>{serverText(resource.uri)}</code>
      {resource.mimeType !== undefined && <Type mime={resource.mimeType} />}{' '}
      <button type="button" onClick={readIt} aria-label={`Read ${name}`}>
        {read.kind === 'loading' ? 'Reading…' : 'Read'}
      </button>
      {resource.description !== undefined && (
        <p class="description">{serverText(resource.description)}</p>
      )}
      {read.kind === 'failed' && <p class="problem">{serverText(read.message)}</p>}
      {read.kind === 'loaded' && (
        <div class="result" role="status">
          {read.value.contents.length === 0 && <p class="hint">The resource is empty.</p>}
          {read.value.contents.map((content, i) => (
            <Content key={i} content={content} />
          ))}
          <LeftOff count={read.value.leftOff} what="contents" />
        </div>
      )}
    </li>
  );
}

function Prompts({ list, api, path }: { list: PromptList; api: Api; path: string }) {
  if (list.prompts.length === 0) return <p class="hint">The server lists no prompts.</p>;
  return (
    <>
      <ul>
        {list.prompts.map((prompt) => (
          <PromptRow key={prompt.name} prompt={prompt} api={api} path={path} />
        ))}
      </ul>
      <LeftOff count={list.leftOff} what="prompts" />
    </>
  );
}

function PromptRow({ prompt, api, path }: { prompt: PromptView; api: Api; path: string }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [got, setGot] = useState<Loaded<PromptGot>>({ kind: 'closed' });
  const get = async (event: Event) => {
    event.preventDefault();
    if (got.kind === 'loading') return;
    setGot({ kind: 'loading' });
    // Only what was typed: an optional argument left empty is not sent.
    const args = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
    const result = await api.call<PromptGot>(
      'POST',
      `${path}/prompts/${encodeURIComponent(prompt.name)}`,
      { arguments: args },
    );
    setGot(
      result.ok
        ? { kind: 'loaded', value: result.value }
        : { kind: 'failed', message: result.error.message },
    );
  };
  const name = serverText(prompt.title ?? prompt.name);
  return (
    <li class="prompt" data-prompt={prompt.name}>
      <Named name={prompt.name} title={prompt.title} />
      <p class="hint">
        Offered to a host as <code>{prompt.offeredAs}</code>
      </p>
      {prompt.description !== undefined && (
        <p class="description">{serverText(prompt.description)}</p>
      )}
      <form class="prompt-args" onSubmit={get} aria-label={`Prompt ${name}`}>
        {prompt.arguments.map((argument) => (
          <label key={argument.name}>
            <span>
              {serverText(argument.name)}
              {argument.required ? ' (required)' : ''}
              {argument.description !== undefined && `: ${serverText(argument.description)}`}
            </span>
            <input
              name={argument.name}
              required={argument.required}
              value={values[argument.name] ?? ''}
              onInput={(event) =>
                setValues({ ...values, [argument.name]: (event.target as HTMLInputElement).value })
              }
            />
          </label>
        ))}
        <button type="submit" aria-label={`Get ${name}`}>
          {got.kind === 'loading' ? 'Getting…' : 'Get'}
        </button>
      </form>
      {got.kind === 'failed' && <p class="problem">{serverText(got.message)}</p>}
      {got.kind === 'loaded' && (
        <div class="result" role="status">
          {got.value.description !== undefined && (
            <p class="description">{serverText(got.value.description)}</p>
          )}
          <ol class="messages">
            {got.value.messages.map((message, i) => (
              <li key={i}>
                <span class="role">{serverText(message.role)}</span>
                <Content content={message.content} />
              </li>
            ))}
          </ol>
          <LeftOff count={got.value.leftOff} what="messages" />
        </div>
      )}
    </li>
  );
}

/** One piece of what the server sent, as text, an image, or what it is. */
function Content({ content }: { readonly content: ContentView }) {
  switch (content.kind) {
    case 'text':
      // The API bounded it already; every character is shown, control characters as escapes.
      return (
        <ScrollText
          class="text"
          text={visibleText(content.text, { lines: true, max: Number.POSITIVE_INFINITY })}
        />
      );
    case 'image':
      return (
        <img
          src={content.dataUrl}
          alt={`From the server: ${content.mimeType}, ${bytesText(content.bytes)}`}
        />
      );
    case 'binary':
      return (
        <p class="hint">
          Binary contents: {bytesText(content.bytes)}
          {content.mimeType !== undefined && `, ${serverText(content.mimeType)}`}.
        </p>
      );
    case 'link':
      return (
        <p>
          A link to the resource {serverText(content.name)} <code>{serverText(content.uri)}</code>
        </p>
      );
    case 'other':
      return <p class="hint">Contents of type "{serverText(content.type)}", not shown here.</p>;
  }
}

function Named({ name, title }: { readonly name: string; readonly title?: string | undefined }) {
  return (
    <strong class="name">
      {serverText(title ?? name)}
      {title !== undefined && title !== name && <span class="count"> ({serverText(name)})</span>}
    </strong>
  );
}

function Type({ mime }: { readonly mime: string }) {
  return <span class="count"> {serverText(mime)}</span>;
}

function LeftOff({ count, what }: { readonly count: number; readonly what: string }) {
  return count > 0 ? (
    <p class="hint">
      {count} more {what} not shown.
    </p>
  ) : null;
}

/** `812 bytes`, `14.2 KB`, `1.3 MB`. */
function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
