// A tool's full schemas and its "Try" form, on demand: the first time either disclosure opens,
// the tool's input and output schema are fetched whole (GET …/schema), so the live view, sent on
// every change, never carries them. The form's code is loaded the first time any Try opens: a page
// that is only looked at does not pay for it.
import type { Schema } from '@epoch-agent/runtime/schema-ref';
import { useState } from 'preact/hooks';
import type { ServerView, ToolSchemas } from '../src/api-types.js';
import { adviceForAnswer } from './advice.js';
import type { Api } from './api.js';
import { tryOpened } from './gone-tools.js';
import { ScrollText } from './scroll-text.js';
import { serverText } from './text.js';
import { wholeText } from './tool-result.js';

type TryModule = typeof import('./tool-try.js');
let tryModule: Promise<TryModule> | undefined;

interface Props {
  readonly api: Api;
  /** The tool's path in the API (`/api/mcp/<server>/tools/<tool>`). */
  readonly path: string;
  /** The name the model is given. */
  readonly name: string;
  /** Offered to the model: only such a tool can be tried (`epoch mcp call` refuses one turned off). */
  readonly offered: boolean;
  /** Its server: what to do about a call's error is said by where the server is written. */
  readonly server: ServerView;
  /** It left the server's list while its Try was open: the form stays, and cannot run. */
  readonly gone: boolean;
}

type Loaded =
  | { readonly state: 'none' }
  | { readonly state: 'loading' }
  | { readonly state: 'loaded'; readonly schemas: ToolSchemas }
  | { readonly state: 'failed'; readonly message: string };

export function ToolDetails({ api, path, name, offered, server, gone }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'none' });
  const [form, setForm] = useState<TryModule>();
  const load = async (event: Event) => {
    const opened = (event.currentTarget as HTMLDetailsElement).open;
    if (!opened || loaded.state === 'loading' || loaded.state === 'loaded') return;
    setLoaded({ state: 'loading' });
    const answer = await api.call<ToolSchemas>('GET', `${path}/schema`);
    setLoaded(
      answer.ok
        ? { state: 'loaded', schemas: answer.value }
        : { state: 'failed', message: answer.error.message },
    );
  };
  return (
    <div class="tool-details">
      <details class="schema" onToggle={load}>
        {/* Named after its tool for a screen reader, which lists every row's Schema and Try. */}
        <summary>
          Schema<span class="visually-hidden"> of {name}</span>
        </summary>
        <Schemas loaded={loaded} />
      </details>
      {offered && (
        <details
          class="try"
          onToggle={(event) => {
            if (event.currentTarget.open) tryOpened(path);
            if (event.currentTarget.open && form === undefined) {
              tryModule ??= import('./tool-try.js');
              tryModule.then(setForm, () => {
                // Asked again at the next opening: epoch web may be back by then.
                tryModule = undefined;
                setLoaded({
                  state: 'failed',
                  message: 'epoch web did not answer: is it still running?',
                });
              });
            }
            void load(event);
          }}
        >
          <summary>
            Try<span class="visually-hidden"> {name}</span>
          </summary>
          {loaded.state === 'loaded' && form !== undefined ? (
            <form.ToolTry
              api={api}
              path={path}
              name={name}
              inputSchema={loaded.schemas.inputSchema as Schema}
              advise={(code) => adviceForAnswer(code, server)}
              gone={gone}
            />
          ) : (
            <Loading loaded={loaded} />
          )}
        </details>
      )}
    </div>
  );
}

function Schemas({ loaded }: { readonly loaded: Loaded }) {
  if (loaded.state !== 'loaded') return <Loading loaded={loaded} />;
  const { inputSchema, outputSchema } = loaded.schemas;
  return (
    <div class="schemas">
      <p class="kind">Input schema</p>
      <ScrollText class="input-schema" text={wholeText(JSON.stringify(inputSchema, null, 2))} />
      <p class="kind">Output schema</p>
      {outputSchema === undefined ? (
        <p class="empty">The tool declares none.</p>
      ) : (
        <ScrollText class="output-schema" text={wholeText(JSON.stringify(outputSchema, null, 2))} />
      )}
    </div>
  );
}

function Loading({ loaded }: { readonly loaded: Loaded }) {
  switch (loaded.state) {
    case 'none':
    case 'loading':
      return <p class="empty">Loading its schema…</p>;
    case 'failed':
      return (
        <p class="problem" role="alert">
          {serverText(loaded.message)}
        </p>
      );
    case 'loaded':
      return null;
  }
}
