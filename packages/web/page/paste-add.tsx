// "Add from JSON": the other way into adding a server — a name and a pasted entry, as
// `epoch mcp add-json` takes it, or one server as configs share it (`{"<name>": {…}}`,
// `{"mcpServers": {"<name>": {…}}}`), whose name fills in for an empty name field (a name typed
// wins: that is how a copied entry is added under another name). Checked and
// written by the same runtime path as the form's add: a byte-preserving insertion, every other byte
// of the file kept.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AddServerResponse, ApiErrorBody, PasteAddRequest } from '../src/api-types.js';
import { type Added, AddedNotice } from './added-notice.js';
import type { Api } from './api.js';
import { BusyButton } from './busy-button.js';
import { Failure } from './entry-editor.js';

interface Props {
  readonly api: Api;
  readonly file: string;
  /** The server was written: the page puts focus on its row once the live view shows it. */
  readonly onAdded: (name: string) => void;
}

const EXAMPLE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    }
  }
}`;

const NAME_REFUSALS: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_name',
  'duplicate_server',
]);

/** What a refusal says of the name typed; undefined when it is about the JSON. */
function nameErrorOf(failure: ApiErrorBody['error']): string | undefined {
  return NAME_REFUSALS.has(failure.code) ? failure.fields?.name : undefined;
}

export function PasteAdd({ api, file, onAdded }: Props) {
  const [name, setName] = useState('');
  const [json, setJson] = useState('');
  const [failure, setFailure] = useState<ApiErrorBody['error']>();
  const [added, setAdded] = useState<Added>();
  const [busy, setBusy] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  // Emptied after an add, it would keep the sideways scroll of the long line it held: the
  // placeholder's example would then show from its middle on a phone.
  useEffect(() => {
    if (added === undefined || textarea.current === null) return;
    textarea.current.scrollLeft = 0;
    textarea.current.scrollTop = 0;
  }, [added]);

  const submit = async () => {
    setAdded(undefined);
    setFailure(undefined);
    setBusy(true);
    try {
      const request: PasteAddRequest = { name, json };
      const result = await api.call<AddServerResponse>('POST', '/api/mcp/json', request);
      if (!result.ok) {
        setFailure(result.error);
        // To the field at fault, as the add form does: the error drawn above the button would
        // otherwise push the focused button off a phone's screen.
        (nameErrorOf(result.error) !== undefined ? nameInput : textarea).current?.focus();
        return;
      }
      const shown = name.trim() !== '' ? name.trim() : (result.value.status?.name ?? 'the server');
      setAdded({ name: shown, answer: result.value });
      setName('');
      setJson('');
      const written = result.value.status?.name ?? name.trim();
      if (written !== '') onAdded(written);
    } finally {
      setBusy(false);
    }
  };

  // Only these refusals are about the name; the others' fields are the entry's, said under the JSON.
  const nameError = failure === undefined ? undefined : nameErrorOf(failure);
  return (
    <section class="group paste" aria-labelledby="paste-title">
      <h2 id="paste-title">Add from JSON</h2>
      <p class="about">
        Paste one server's entry, as <code>epoch mcp add-json</code> takes it, or a snippet like{' '}
        <code>{'{"mcpServers": {"<name>": {…}}}'}</code> from a README; a name typed here wins over
        the one in the JSON. Written into <code>{file}</code> like the form above. Copied entries
        carry placeholders for their secrets: write the values in first.
      </p>
      {/* Not a <form>: a textarea takes Enter anyway; the section is named by its heading. */}
      <div class="paste-form">
        <label>
          Name
          <input
            ref={nameInput}
            name="paste-name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            placeholder="from the JSON when it names the server"
            autocomplete="off"
            spellcheck={false}
            aria-invalid={nameError !== undefined}
          />
        </label>
        {nameError !== undefined && (
          <p class="field-error" role="alert">
            {nameError}
          </p>
        )}
        <label>
          JSON
          <textarea
            ref={textarea}
            name="paste-json"
            value={json}
            rows={8}
            placeholder={EXAMPLE}
            spellcheck={false}
            autocomplete="off"
            aria-invalid={failure !== undefined && nameError === undefined}
            onInput={(e) => setJson(e.currentTarget.value)}
          />
        </label>
        {failure !== undefined && nameError === undefined && <Failure failure={failure} />}
        <BusyButton class="primary" onClick={submit} busy={busy}>
          {busy ? 'Adding…' : 'Add from JSON'}
        </BusyButton>
      </div>
      {added !== undefined && <AddedNotice added={added} />}
    </section>
  );
}
