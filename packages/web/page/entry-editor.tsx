// A user server's entry as JSON, on its card: "Edit JSON" opens the entry as it is written in the
// file (comments, aliases and all) in a text editor, checked on save as `epoch mcp add-json` checks
// an entry and written as a replacement of that entry only; "Copy JSON" puts `{"<name>": {…}}` on
// the clipboard, ready to paste into another config or "Add from JSON".
//
// The page never holds a secret of the file: env and header values, credential arguments, URL
// tokens and comments about them come as placeholders (`"<secret: env.API_KEY>"`), and a
// placeholder left in place keeps the value in the file. The editor and the copy say so.
//
// Nothing is lost: the save says which version of the entry it was edited from, and the API refuses
// it (409 `changed_since`) once the file holds another. While the editor is open, each new view
// (every save of the file sends one) has the entry read again: one written otherwise since (by
// hand, or on another page) is said at once, with Reload.
import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  ApiErrorBody,
  ServerEntry,
  ServerEntryRequest,
  ServerEntryWritten,
  ServerView,
} from '../src/api-types.js';
import type { Api } from './api.js';

interface Props {
  readonly server: ServerView;
  readonly api: Api;
  /** `/api/mcp/<name>`. */
  readonly path: string;
}

type Editor =
  | { readonly kind: 'closed' }
  | { readonly kind: 'loading' }
  | {
      readonly kind: 'open';
      readonly entry: ServerEntry;
      readonly text: string;
      readonly saving: boolean;
      readonly failure?: ApiErrorBody['error'] | undefined;
      /** The entry as the file has it now, when that is not the one being edited. */
      readonly moved?: ServerEntry | undefined;
    };

/** What the last action said, shown under the buttons. */
type Note =
  | { readonly kind: 'done'; readonly text: string }
  | { readonly kind: 'failed'; readonly text: string };

// Tall enough for a usual entry without scrolling, never taller than a screen.
const MAX_ROWS = 24;

export function EntryTools({ server, api, path }: Props) {
  const [editor, setEditor] = useState<Editor>({ kind: 'closed' });
  const [note, setNote] = useState<Note>();
  const { name } = server;
  const editButton = useRef<HTMLButtonElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const isOpen = editor.kind === 'open';
  // Focus goes into the editor when it opens and back to its button when it closes, never to <body>.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (isOpen && !wasOpen.current) textarea.current?.focus();
    if (!isOpen && wasOpen.current) editButton.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);

  // A new view of the server while the editor is open: has its entry been written since? One read
  // at a time; a view that comes during one is read again after it, so no save is missed.
  const reading = useRef(false);
  const readAgain = useRef(false);
  const openVersion = editor.kind === 'open' ? editor.entry.version : undefined;
  useEffect(() => {
    if (openVersion === undefined) return;
    if (reading.current) {
      readAgain.current = true;
      return;
    }
    const check = async (): Promise<void> => {
      reading.current = true;
      readAgain.current = false;
      const result = await api.call<ServerEntry>('GET', `${path}/entry`);
      if (result.ok && result.value.version !== openVersion) {
        const now = result.value;
        setEditor((shown) =>
          shown.kind === 'open' && shown.entry.version === openVersion
            ? { ...shown, moved: now }
            : shown,
        );
      }
      reading.current = false;
      if (readAgain.current) await check();
    };
    void check();
  }, [server, openVersion, api, path]);

  const fetchEntry = async (): Promise<ServerEntry | undefined> => {
    const result = await api.call<ServerEntry>('GET', `${path}/entry`);
    if (result.ok) return result.value;
    setNote({ kind: 'failed', text: result.error.message });
    return undefined;
  };

  const open = async () => {
    setNote(undefined);
    setEditor({ kind: 'loading' });
    const entry = await fetchEntry();
    setEditor(
      entry === undefined
        ? { kind: 'closed' }
        : { kind: 'open', entry, text: entry.text, saving: false },
    );
  };

  const copy = async () => {
    setNote(undefined);
    const entry = await fetchEntry();
    if (entry === undefined) return;
    try {
      await navigator.clipboard.writeText(entry.json);
    } catch {
      setNote({
        kind: 'failed',
        text: 'The browser did not let the page write to the clipboard; allow it for this page, or copy from "Edit JSON".',
      });
      return;
    }
    // Counted in what was copied: the editor's comments about secrets are not in the JSON.
    const hidden = entry.json.split('"<secret: ').length - 1;
    const secrets =
      hidden === 0
        ? ''
        : hidden === 1
          ? ' Its secret value is a placeholder ("<secret: …>"): write the real value where you paste it.'
          : ` Its ${hidden} secret values are placeholders ("<secret: …>"): write the real values where you paste it.`;
    setNote({ kind: 'done', text: `Copied the entry of ${name} as JSON.${secrets}` });
  };

  const save = async (event: Event) => {
    event.preventDefault();
    if (editor.kind !== 'open') return;
    setEditor({ ...editor, saving: true, failure: undefined });
    const body: ServerEntryRequest = { text: editor.text, basedOn: editor.entry.version };
    const result = await api.call<ServerEntryWritten>('PUT', `${path}/entry`, body);
    if (!result.ok) {
      setEditor({ ...editor, saving: false, failure: result.error });
      return;
    }
    const { file, changed } = result.value;
    setEditor({ kind: 'closed' });
    setNote({
      kind: 'done',
      text: changed
        ? `Saved the entry of ${name} in ${file}; the server restarts if its settings changed.`
        : `The entry of ${name} is unchanged; nothing was written.`,
    });
  };

  const close = () => setEditor({ kind: 'closed' });

  /** The entry as the file has it now in the editor, what was typed given up. */
  const reload = async () => {
    const entry = await fetchEntry();
    if (entry === undefined) return;
    setEditor({ kind: 'open', entry, text: entry.text, saving: false });
    textarea.current?.focus();
  };
  const refused = editor.kind === 'open' && editor.failure?.code === 'changed_since';

  return (
    <div class="entry-tools">
      <div class="entry-actions">
        <button
          type="button"
          ref={editButton}
          onClick={open}
          disabled={editor.kind !== 'closed'}
          aria-expanded={editor.kind === 'open'}
        >
          {editor.kind === 'loading' ? 'Opening…' : 'Edit JSON'}
        </button>
        <button type="button" onClick={copy}>
          Copy JSON
        </button>
      </div>
      {note !== undefined && (
        <p
          class={note.kind === 'done' ? 'notice' : 'problem'}
          role={note.kind === 'done' ? 'status' : 'alert'}
        >
          {note.text}
        </p>
      )}
      {editor.kind === 'open' && (
        <form
          class="entry-editor"
          onSubmit={save}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
        >
          <label>
            <span>
              The entry of {name} in <code>{editor.entry.file}</code>, line {editor.entry.line}
            </span>
            <textarea
              ref={textarea}
              name="entry"
              value={editor.text}
              rows={Math.min(editor.text.split('\n').length + 1, MAX_ROWS)}
              spellcheck={false}
              autocomplete="off"
              aria-invalid={editor.failure !== undefined}
              onInput={(e) => setEditor({ ...editor, text: e.currentTarget.value })}
            />
          </label>
          <p class="about">
            Only this entry's text in the file changes; comments you keep here stay. Any field, in
            either spelling, as <code>epoch mcp add-json</code> takes it.
            {editor.entry.hidden > 0 && (
              <>
                {' '}
                Secret values are shown as placeholders like{' '}
                <code>"&lt;secret: env.API_KEY&gt;"</code>: leave one as it is to keep the value in
                the file, or write a new value in its place.
              </>
            )}{' '}
            The name is not edited here: to rename a server, copy its entry, add it under the new
            name and remove this one.
          </p>
          {editor.moved !== undefined && !refused && (
            <p class="problem" role="alert">
              The entry of {name} in <code>{editor.moved.file}</code> changed since you opened it
              (by hand, or on another page): saving now would be refused. Reload to edit it as it is
              now (copy what you typed first to keep it).
            </p>
          )}
          {editor.failure !== undefined && <Failure failure={editor.failure} />}
          <div class="entry-actions">
            <button type="submit" class="primary" disabled={editor.saving}>
              {editor.saving ? 'Saving…' : 'Save'}
            </button>
            {(editor.moved !== undefined || refused) && (
              <button type="button" onClick={reload}>
                Reload
              </button>
            )}
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** A refusal: its message, then each problem of the entry with the field it is about. */
export function Failure({ failure }: { readonly failure: ApiErrorBody['error'] }) {
  return (
    <div class="problem" role="alert">
      <p>{failure.message}</p>
      {failure.diagnostics !== undefined && failure.diagnostics.length > 0 && (
        <ul>
          {failure.diagnostics.map((d) => (
            <li key={`${d.path}:${d.line}:${d.column}`}>
              {d.path !== '' && <code>{d.path}</code>} {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
