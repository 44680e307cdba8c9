// "Add server": a name and three things — the transport, the command (or URL), and env variables as
// rows. A command line pasted from a README is split as a shell would split it (split-command.ts)
// and shown as the words epoch will run; leading NAME=value words go to the environment. Everything
// else (timeouts, oauth, headers) is written by hand in the file, and after adding, the form says
// which file and which fields. Each error is tied to its input (aria-describedby, aria-invalid), so
// a screen reader reads it where it is; "Add a variable" puts focus in the row it adds.
import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  AddServerField,
  AddServerRequest,
  AddServerResponse,
  ApiErrorBody,
} from '../src/api-types.js';
import { envNameProblem } from '../src/form-rules.js';
import { type Added, AddedNotice } from './added-notice.js';
import type { Api } from './api.js';
import { BusyButton } from './busy-button.js';
import { splitCommandLine } from './split-command.js';

type Transport = AddServerRequest['transport'];

const TRANSPORTS: Record<Transport, { readonly label: string; readonly placeholder: string }> = {
  stdio: {
    label: 'stdio: a command epoch starts',
    placeholder: 'npx -y @modelcontextprotocol/server-filesystem /tmp',
  },
  http: { label: 'Streamable HTTP: a URL', placeholder: 'https://mcp.example.com/mcp' },
  sse: { label: 'SSE: a URL', placeholder: 'https://mcp.example.com/sse' },
};

interface EnvRow {
  readonly id: number;
  readonly name: string;
  readonly value: string;
}

/** The form's own inputs, each of which a field error is shown under. */
type Input = 'name' | 'transport' | 'target' | 'env';
type Errors = Partial<Record<Input, string>>;

/** The errors an Add gave (the form's own check or the server's answer), and what they were about. */
interface Given {
  readonly errors: Errors;
  readonly values: Record<Input, string>;
}

const INPUT_OF: Record<AddServerField, Input> = {
  name: 'name',
  transport: 'transport',
  command: 'target',
  args: 'target',
  url: 'target',
  env: 'env',
};

interface Props {
  readonly api: Api;
  readonly file: string;
  readonly namePattern: string;
  /** The server was written: the page puts focus on its row once the live view shows it. */
  readonly onAdded: (name: string) => void;
}

let nextRowId = 0;

export function AddServerForm({ api, file, namePattern, onAdded }: Props) {
  const [name, setName] = useState('');
  const [transport, setTransport] = useState<Transport>('stdio');
  const [line, setLine] = useState('');
  const [rows, setRows] = useState<readonly EnvRow[]>([]);
  const [given, setGiven] = useState<Given>();
  const [failure, setFailure] = useState<ApiErrorBody['error']>();
  const [added, setAdded] = useState<Added>();
  const [busy, setBusy] = useState(false);
  // The row "Add a variable" just added, whose name input takes focus once it is drawn.
  const [focusRow, setFocusRow] = useState<number>();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusRow === undefined) return;
    form.current?.querySelector<HTMLInputElement>(`[data-row="${focusRow}"] input`)?.focus();
    setFocusRow(undefined);
  }, [focusRow]);
  // Counts the Adds that were refused for an input: each puts focus on the first input in error,
  // once its error is drawn, so the person lands where the fix is rather than on the button.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0) return;
    form.current
      ?.querySelector<HTMLElement>(
        'input[aria-invalid="true"], select[aria-invalid="true"], fieldset[aria-invalid="true"] input',
      )
      ?.focus();
  }, [refusals]);

  const stdio = transport === 'stdio';
  const words = splitCommandLine(line);

  /** The request the form makes, or what is wrong with each input. */
  const check = ():
    | { readonly ok: true; readonly request: AddServerRequest }
    | { readonly ok: false; readonly errors: Errors } => {
    const errors: Errors = {};
    if (name === '') errors.name = 'Give the server a name.';
    else if (!new RegExp(namePattern).test(name)) {
      errors.name = `Only letters, digits, "_" and "-": the name becomes part of tool names (mcp__${name}__…), which model providers restrict.`;
    }
    if (!stdio) {
      const url = line.trim();
      if (url === '') errors.target = 'Give the URL of the server.';
      return Object.keys(errors).length > 0
        ? { ok: false, errors }
        : { ok: true, request: { name, transport, url } };
    }
    const env: Record<string, string> = {};
    for (const [key, value] of words.ok ? words.env : []) env[key] = value;
    for (const row of rows) {
      if (row.name === '' && row.value === '') continue;
      const problem = envNameProblem(row.name);
      if (problem !== undefined) errors.env = problem;
      else if (env[row.name] !== undefined) {
        errors.env = `${row.name} is set twice (in the command line and a row, or in two rows).`;
      } else env[row.name] = row.value;
    }
    if (!words.ok) errors.target = words.message;
    else if (words.argv.length === 0) errors.target = 'Give the command that starts the server.';
    const [command, ...args] = words.ok ? words.argv : [];
    if (Object.keys(errors).length > 0 || command === undefined) return { ok: false, errors };
    return { ok: true, request: { name, transport, command, args, env } };
  };

  // An error given at Add stands while its input is still wrong (in the words of what is wrong
  // now) and goes as soon as the input is right: a red message under a command that is fine now
  // reads as if it were still wrong. The server's answer (a name that is taken) stands until its
  // input is edited: only the server can say whether the edit fixed it.
  const values: Record<Input, string> = {
    name,
    transport,
    target: line,
    env: JSON.stringify(rows.map((row) => [row.name, row.value])),
  };
  const now = check();
  const errors: Errors = {};
  for (const input of Object.keys(given?.errors ?? {}) as Input[]) {
    const unchanged = values[input] === given?.values[input];
    const stands =
      (now.ok ? undefined : now.errors[input]) ?? (unchanged ? given?.errors[input] : undefined);
    if (stands !== undefined) errors[input] = stands;
  }

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setAdded(undefined);
    setFailure(undefined);
    setGiven({ errors: now.ok ? {} : now.errors, values });
    if (!now.ok) {
      setRefusals((n) => n + 1);
      return;
    }
    const { request } = now;
    setBusy(true);
    try {
      const result = await api.call<AddServerResponse>('POST', '/api/mcp', request);
      if (result.ok) {
        setAdded({ name: request.name, answer: result.value });
        setName('');
        setLine('');
        setRows([]);
        onAdded(request.name);
        return;
      }
      const fields: Errors = {};
      for (const [field, message] of Object.entries(result.error.fields ?? {})) {
        fields[INPUT_OF[field as AddServerField]] ??= message;
      }
      setGiven({ errors: fields, values });
      if (Object.keys(fields).length === 0) setFailure(result.error);
      else setRefusals((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  const setRow = (id: number, change: Partial<EnvRow>) =>
    setRows(rows.map((row) => (row.id === id ? { ...row, ...change } : row)));

  return (
    <section class="group add" aria-labelledby="add-title">
      <h2 id="add-title">Add a server</h2>
      <p class="about">
        Written into <code>{file}</code>, which keeps your comments and layout; the server connects
        at once.
      </p>
      <form onSubmit={submit} noValidate ref={form}>
        <label>
          Name
          <input
            name="name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            pattern={namePattern}
            autocomplete="off"
            spellcheck={false}
            {...tiedTo('name', errors)}
          />
        </label>
        <FieldError input="name" message={errors.name} />

        <label>
          Transport
          <select
            name="transport"
            value={transport}
            onChange={(e) => setTransport(e.currentTarget.value as Transport)}
            {...tiedTo('transport', errors)}
          >
            {(Object.keys(TRANSPORTS) as Transport[]).map((t) => (
              <option key={t} value={t}>
                {TRANSPORTS[t].label}
              </option>
            ))}
          </select>
        </label>
        <FieldError input="transport" message={errors.transport} />

        <label>
          {stdio ? 'Command' : 'URL'}
          <input
            name="target"
            value={line}
            onInput={(e) => setLine(e.currentTarget.value)}
            placeholder={TRANSPORTS[transport].placeholder}
            autocomplete="off"
            spellcheck={false}
            {...tiedTo('target', errors, stdio && !words.ok ? 'add-target-words' : undefined)}
          />
        </label>
        {stdio && words.ok && words.argv.length > 0 && (
          <p class="words">
            <span class="runs">epoch will run:</span>
            {words.env.map(([key]) => (
              <span class="word env" key={`env-${key}`}>
                {key}=…
              </span>
            ))}
            {words.argv.map((word, i) => (
              <span class={i === 0 ? 'word command' : 'word'} key={i}>
                {word}
              </span>
            ))}
          </p>
        )}
        {stdio && !words.ok && errors.target === undefined && (
          <p class="field-error" id="add-target-words">
            {words.message}
          </p>
        )}
        <FieldError input="target" message={errors.target} />

        <fieldset disabled={!stdio} {...tiedTo('env', errors)}>
          <legend>Environment variables</legend>
          {!stdio && (
            <p class="about">
              A remote server gets no environment; write its headers (for example Authorization) by
              hand in <code>{file}</code> after adding it.
            </p>
          )}
          {stdio &&
            rows.map((row) => (
              <div class="env-row" key={row.id} data-row={row.id}>
                <input
                  aria-label="Variable name"
                  placeholder="NAME"
                  {...(errors.env !== undefined && row.name !== '' && envNameProblem(row.name)
                    ? tiedTo('env', errors)
                    : {})}
                  value={row.name}
                  onInput={(e) => setRow(row.id, { name: e.currentTarget.value })}
                  autocomplete="off"
                  spellcheck={false}
                />
                <input
                  aria-label={`Value of ${row.name || 'the variable'}`}
                  placeholder="value"
                  type="password"
                  value={row.value}
                  onInput={(e) => setRow(row.id, { value: e.currentTarget.value })}
                  autocomplete="off"
                />
                <button
                  type="button"
                  aria-label={`Remove ${row.name || 'this variable'}`}
                  onClick={() => setRows(rows.filter((r) => r.id !== row.id))}
                >
                  ×
                </button>
              </div>
            ))}
          {stdio && (
            <button
              type="button"
              onClick={() => {
                const id = nextRowId++;
                setRows([...rows, { id, name: '', value: '' }]);
                setFocusRow(id);
              }}
            >
              Add a variable
            </button>
          )}
        </fieldset>
        <FieldError input="env" message={errors.env} />

        <BusyButton type="submit" class="primary" busy={busy}>
          {busy ? 'Adding…' : 'Add server'}
        </BusyButton>
      </form>

      {failure !== undefined && (
        <div class="problem" role="alert">
          <p>{failure.message}</p>
          {failure.diagnostics !== undefined && (
            <ul>
              {failure.diagnostics.map((d) => (
                <li key={`${d.line}:${d.column}`}>
                  <code>
                    {d.file}:{d.line}:{d.column}
                  </code>{' '}
                  {d.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {added !== undefined && <AddedNotice added={added} />}
    </section>
  );
}

/** An input's ARIA ties to its error (and to a note of its own, when it has one). */
function tiedTo(input: Input, errors: Errors, note?: string) {
  const ids = [errors[input] === undefined ? undefined : errorId(input), note].filter(
    (id) => id !== undefined,
  );
  return {
    'aria-invalid': errors[input] !== undefined,
    ...(ids.length === 0 ? {} : { 'aria-describedby': ids.join(' ') }),
  };
}

const errorId = (input: Input) => `add-${input}-error`;

function FieldError({
  input,
  message,
}: {
  readonly input: Input;
  readonly message: string | undefined;
}) {
  return message === undefined ? null : (
    <p class="field-error" role="alert" id={errorId(input)}>
      {message}
    </p>
  );
}
