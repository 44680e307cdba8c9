// "Import from…": a dialog with what each other MCP client on this machine has (per client its file,
// its servers with a checkbox each, what each would run and whether that downloads code, its notes,
// a taken name marked, one epoch runs already not offered again), and the import of the checked
// ones into the user's mcp.json (POST /api/import), then what was added. Importing starts them, so
// every launch is on screen above the import button. The values of env and headers never come
// here: their keys do, and the entry with each secret as a placeholder.
import { useRef, useState } from 'preact/hooks';
import type {
  ApiErrorBody,
  ImportChoice,
  ImportDone,
  ImportFileView,
  ImportServerView,
  ImportView,
} from '../src/api-types.js';
import type { Api } from './api.js';
import { BusyButton } from './busy-button.js';
import { Failure } from './entry-editor.js';
import { LaunchDetails } from './launch-details.js';

interface Props {
  readonly api: Api;
}

function keyOf(file: ImportFileView, server: ImportServerView): string {
  return JSON.stringify([file.client, file.path, file.scope, server.original]);
}

export function ImportDialog({ api }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [view, setView] = useState<ImportView>();
  const [failure, setFailure] = useState<ApiErrorBody['error']>();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [done, setDone] = useState<ImportDone>();
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const result = await api.call<ImportView>('GET', '/api/import');
    if (!result.ok) {
      setFailure(result.error);
      return;
    }
    setView(result.value);
    // A new name is checked; a taken one only when the person asks for it under its new name.
    const fresh = result.value.files.flatMap((file) =>
      file.servers.filter((s) => s.state === 'new').map((s) => keyOf(file, s)),
    );
    setChecked(new Set(fresh));
  };

  const open = async () => {
    setView(undefined);
    setFailure(undefined);
    setDone(undefined);
    dialog.current?.showModal();
    await load();
  };

  const toggle = (key: string, on: boolean) => {
    const next = new Set(checked);
    if (on) next.add(key);
    else next.delete(key);
    setChecked(next);
  };

  const submit = async () => {
    if (view === undefined) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const servers: ImportChoice[] = view.files.flatMap((file) =>
        file.servers
          .filter((s) => checked.has(keyOf(file, s)))
          .map((s) => ({
            client: file.client,
            path: file.path,
            scope: file.scope,
            original: s.original,
          })),
      );
      const result = await api.call<ImportDone>('POST', '/api/import', { servers });
      if (!result.ok) {
        setFailure(result.error);
        return;
      }
      setDone(result.value);
      await load();
    } finally {
      setBusy(false);
    }
  };

  const count = checked.size;
  return (
    <>
      <button type="button" class="import-open" onClick={open}>
        Import from…
      </button>
      <dialog ref={dialog} class="import-dialog" aria-labelledby="import-dialog-title">
        <h2 id="import-dialog-title">Import from other clients</h2>
        <p class="about">
          The MCP servers of Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI and
          Codex on this machine, translated into entries of your file; <code>epoch mcp import</code>{' '}
          does the same.
        </p>
        {view === undefined && failure === undefined && (
          <p role="status">Reading the clients' files…</p>
        )}
        {failure !== undefined && <Failure failure={failure} />}
        {done !== undefined && <ImportedNotice done={done} />}
        {view !== undefined && (
          <>
            <p class="about">
              Checked servers are added to <code>{view.file}</code>, every other byte of it kept,
              and started: check only those whose command or address you trust.
            </p>
            {view.files.length === 0 && <p class="empty">No other client's MCP file was found.</p>}
            {view.files.map((file) => (
              <ClientFile
                key={`${file.client}:${file.path}:${file.scope}`}
                file={file}
                checked={checked}
                toggle={toggle}
              />
            ))}
          </>
        )}
        <div class="import-actions">
          <BusyButton
            class="primary"
            onClick={submit}
            busy={busy}
            inactive={count === 0 || view === undefined}
          >
            {busy ? 'Importing…' : `Import ${count} selected`}
          </BusyButton>
          <button type="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}

interface ClientFileProps {
  readonly file: ImportFileView;
  readonly checked: ReadonlySet<string>;
  readonly toggle: (key: string, on: boolean) => void;
}

function ClientFile({ file, checked, toggle }: ClientFileProps) {
  return (
    <section class="import-file" data-client={file.client} data-scope={file.scope}>
      <h3>
        {file.label}
        {file.scope === 'project' && ' (project)'}
      </h3>
      <p class="origin">
        <code>{file.path}</code>
      </p>
      {file.problem !== undefined && <p class="field-error">{file.problem}</p>}
      {file.problem === undefined && file.servers.length === 0 && (
        <p class="empty">No MCP servers.</p>
      )}
      <ul class="import-servers">
        {file.servers.map((server) => {
          const key = keyOf(file, server);
          return (
            <li
              key={key}
              class="import-server"
              data-server={server.original}
              data-state={server.state}
            >
              <label class="import-pick">
                <input
                  type="checkbox"
                  checked={checked.has(key)}
                  disabled={server.state === 'refused' || server.state === 'imported'}
                  onChange={(e) => toggle(key, e.currentTarget.checked)}
                />{' '}
                <strong>{server.original}</strong>
                {server.name !== server.original && server.state === 'new' && (
                  <> as {server.name}</>
                )}
              </label>
              {server.state === 'taken' && (
                <p class="clash">
                  Name taken by <code>{server.clashWith}</code> in your file: imported as{' '}
                  <code>{server.name}</code> if checked.
                </p>
              )}
              {server.state === 'imported' && (
                <p class="clash">
                  Already set up as <code>{server.sameAs}</code>, which runs exactly this: not
                  imported again.
                </p>
              )}
              {server.state === 'refused' && <p class="field-error">{server.message}</p>}
              {server.launch !== undefined ? (
                <LaunchDetails launch={server.launch} />
              ) : (
                <>
                  <HiddenKeys field="env" keys={server.env} />
                  <HiddenKeys field="headers" keys={server.headers} />
                </>
              )}
              {server.notes.length > 0 && (
                <ul class="notes">
                  {server.notes.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function HiddenKeys({ field, keys }: { readonly field: string; readonly keys: readonly string[] }) {
  if (keys.length === 0) return null;
  return (
    <p class="origin">
      {field}:{' '}
      {keys.map((key, i) => (
        <span key={key}>
          {i > 0 && ', '}
          <code>{key}</code>
        </span>
      ))}{' '}
      (value hidden)
    </p>
  );
}

function ImportedNotice({ done }: { readonly done: ImportDone }) {
  const added = done.servers.filter((s) => s.added);
  const refused = done.servers.filter((s) => !s.added);
  return (
    <div class="notice" role="status">
      <p>
        Added {added.length} {added.length === 1 ? 'server' : 'servers'} to <code>{done.file}</code>
        {added.length > 0 && ': '}
        {added.map((s, i) => (
          <span key={s.name}>
            {i > 0 && ', '}
            <strong>{s.name}</strong>
          </span>
        ))}
        .
      </p>
      {refused.map((s) => (
        <p key={`${s.label}:${s.original}`}>
          {s.original} ({s.label}) was not added: {s.message}
        </p>
      ))}
    </div>
  );
}
