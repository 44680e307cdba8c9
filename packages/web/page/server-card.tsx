// One server on the page: its compact row (server-row.tsx), and once opened its card — what it
// runs or reaches, where it is written, its last error with what to do and its stderr tail, its
// recent output, its tools, and the actions that apply to it (reconnect; log in when the server
// asks for a login; remove for a server of the user's own file). While the live view is lost, it
// says its state is only the last one known.

import type { McpServerOrigin, McpServerState } from '@epoch-agent/runtime';
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { LoginStarted, ServerEntry, ServerView } from '../src/api-types.js';
import { adviceFor } from './advice.js';
import type { Api, ApiResult } from './api.js';
import { Capabilities } from './capabilities.js';
import type { ChoiceOutcome } from './choice-switch.js';
import { EntryTools } from './entry-editor.js';
import { EntryProblems } from './entry-problems.js';
import { useFocusHandoff } from './focus-handoff.js';
import { offersLogin } from './login-offer.js';
import { LoginStatus } from './login-status.js';
import { ServerContent } from './server-content.js';
import { ServerLogs } from './server-logs.js';
import { ServerRow } from './server-row.js';
import { STATE_LOOKS } from './states.js';
import { exitText, serverText, stderrText } from './text.js';
import { serverCostText } from './token-totals.js';
import type { ToolMatch } from './tool-filter.js';
import { ToolList } from './tool-list.js';

interface Props {
  readonly server: ServerView;
  readonly api: Api;
  /** "Find a tool": its tools list only those that match. */
  readonly toolMatch?: ToolMatch | undefined;
  /** The live view is lost: `server` is the last thing epoch web said about it. */
  readonly stale: boolean;
  /** Opened to its card; closed, only its row is rendered. */
  readonly open: boolean;
  readonly onToggle: () => void;
  /** The person acted on the server (switch, reconnect, login): its row keeps its place. */
  readonly onAct: () => void;
}

export function ServerCard(props: Props) {
  const { server, api, toolMatch, stale, open, onToggle, onAct } = props;
  const [busy, setBusy] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState<string>();
  const card = useRef<HTMLElement>(null);
  const bodyId = useId();
  useFocusHandoff(card);
  const confirmation = useConfirmationFocus(confirming);
  const { name, status, target, origin } = server;
  // No status: this process does not start it (a runtime that connects only some servers).
  const state: McpServerState = status?.state ?? 'disconnected';
  const look = STATE_LOOKS[state];
  const path = `/api/mcp/${encodeURIComponent(name)}`;

  const act = async (what: string, run: () => Promise<string | undefined>) => {
    if (busy !== undefined) return;
    onAct();
    setBusy(what);
    setProblem(undefined);
    setSaved(undefined);
    try {
      setProblem(await run());
    } finally {
      setBusy(undefined);
    }
  };
  const reconnect = () =>
    act('reconnect', async () => {
      const result = await api.call('POST', `${path}/reconnect`);
      return result.ok ? undefined : result.error.message;
    });
  const login = () =>
    act('login', async () => {
      const result = await api.call<LoginStarted>('POST', `${path}/login`);
      if (!result.ok) return result.error.message;
      // This tab goes to the authorization server; the login sends it back here when it is done.
      if (result.value.authorizationUrl !== undefined) {
        location.assign(result.value.authorizationUrl);
      }
      return undefined;
    });
  // The entry as it was when Remove was asked: the remove takes out that entry or nothing (409
  // `changed_since` once the file holds another). Read then, for this card alone, rather than
  // carried for every server in every view.
  const asked = useRef<Promise<ApiResult<ServerEntry>> | undefined>(undefined);
  const askRemove = () => {
    asked.current = api.call<ServerEntry>('GET', `${path}/entry`);
    setConfirming(true);
  };
  const remove = () =>
    act('remove', async () => {
      const entry = await (asked.current ?? api.call<ServerEntry>('GET', `${path}/entry`));
      const result = entry.ok
        ? await api.call('DELETE', `${path}?basedOn=${encodeURIComponent(entry.value.version)}`)
        : entry;
      if (result.ok) return undefined; // The card goes away with the next view.
      setConfirming(false);
      return result.error.message;
    });
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Taken: the card stays open, only the question goes.
    event.preventDefault();
    setConfirming(false);
  };
  // Escape anywhere in the open card closes it, focus back on its row — unless something inside
  // took the key (an editor, the remove question, a dialog of its own, a search field clearing).
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented || !open) return;
    const target = event.target as Element;
    if (target.closest('dialog') !== null || target.matches('input[type="search"]')) return;
    event.preventDefault();
    card.current?.querySelector<HTMLElement>('button.row')?.focus();
    onToggle();
  };
  const chosen = (outcome: ChoiceOutcome) => {
    setSaved(outcome.kind === 'saved' ? outcome.text : undefined);
    setProblem(outcome.kind === 'refused' ? outcome.message : undefined);
  };

  const error = status !== undefined && 'error' in status ? status.error : undefined;
  const stderr =
    status !== undefined && 'stderrTail' in status ? stderrText(status.stderrTail.trimEnd()) : '';
  const exit =
    status?.state === 'failed' || status?.state === 'reconnecting' ? status.exit : undefined;
  const advice = error === undefined ? undefined : adviceFor(error.code, server);
  // Busy buttons are aria-disabled, not disabled: a disabled button loses focus to <body>.
  const whileBusy = { 'aria-disabled': busy !== undefined };
  return (
    <article
      class={stale ? 'server stale' : 'server'}
      data-server={name}
      data-state={state}
      data-stale={stale ? 'true' : undefined}
      data-open={open ? 'true' : undefined}
      aria-label={name}
      tabIndex={-1}
      ref={card}
      onKeyDown={closeOnEscape}
    >
      <ServerRow
        server={server}
        state={state}
        api={api}
        path={path}
        stale={stale}
        open={open}
        bodyId={bodyId}
        onToggle={onToggle}
        matches={
          toolMatch === undefined
            ? undefined
            : [...server.tools, ...server.toolsOff].filter(toolMatch)
        }
        onOutcome={chosen}
        onAct={onAct}
      />
      {problem !== undefined && (
        <p class="problem" role="alert">
          {serverText(problem)}
        </p>
      )}
      {saved !== undefined && (
        <p class="notice" role="status">
          {saved}
        </p>
      )}
      {/* Only an opened card is rendered: thirty servers' cards, tools and forms are thousands of
          elements the page would otherwise build and keep in step with every view. */}
      {open && (
        <div class="body" id={bodyId}>
          <p class="actions">
            {/* Nothing of a server that waits for approval or is off runs: nothing to reconnect. */}
            {status !== undefined && state !== 'disabled' && state !== 'needsApproval' && (
              <button type="button" onClick={reconnect} {...whileBusy}>
                {busy === 'reconnect' ? 'Reconnecting…' : 'Reconnect'}
              </button>
            )}
            {offersLogin(server) && (
              <button
                type="button"
                onClick={login}
                {...whileBusy}
                class={state === 'needsLogin' ? 'primary' : ''}
              >
                {busy === 'login' ? 'Starting login…' : 'Log in'}
              </button>
            )}
            {origin.source === 'user' &&
              (confirming ? (
                <>
                  <button
                    type="button"
                    class="danger"
                    onClick={remove}
                    ref={confirmation.confirm}
                    onKeyDown={cancelOnEscape}
                    {...whileBusy}
                  >
                    {busy === 'remove' ? 'Removing…' : 'Remove from mcp.json'}
                  </button>
                  <button
                    type="button"
                    onClick={() => setConfirming(false)}
                    onKeyDown={cancelOnEscape}
                  >
                    Cancel
                  </button>
                </>
              ) : (
                <button type="button" onClick={askRemove} ref={confirmation.remove}>
                  Remove
                </button>
              ))}
          </p>
          <p class="target">
            <span class="transport">{target.transport}</span>{' '}
            {target.transport === 'stdio' ? (
              <code>
                {[target.command, ...target.args].map((word, i) => (
                  <span class="word" key={i}>
                    {word}
                  </span>
                ))}
              </code>
            ) : (
              <code>{target.url}</code>
            )}
          </p>
          <p class="origin">
            {comesFrom(origin)}
            {origin.source !== 'user' && (
              <>
                {' '}
                Turning it or its tools off is saved in your mcp.json (under "overrides"), not where
                it comes from.
              </>
            )}
            {server.at !== undefined && (
              <>
                {' '}
                Written at{' '}
                <code>
                  {server.at.file}:{server.at.line}:{server.at.column}
                </code>
                .
              </>
            )}
          </p>

          {status?.state === 'connected' && <Capabilities capabilities={status.capabilities} />}
          {target.transport !== 'stdio' && <LoginStatus server={server} api={api} path={path} />}
          <EntryProblems problems={server.problems} />
          {server.login?.state === 'pending' && (
            <p class="notice" role="status">
              Waiting for the login in the browser…{' '}
              {server.login.authorizationUrl !== undefined && (
                <a href={server.login.authorizationUrl}>Continue the login</a>
              )}
            </p>
          )}
          {server.login?.state === 'failed' && (
            <p class="problem" role="alert">
              The login did not finish: {serverText(server.login.message)}
            </p>
          )}
          {/* No role="alert": a state is announced once, when it changes (StateAnnouncer). */}
          {error !== undefined && (
            <div class="error">
              <p class="message">{serverText(error.message)}</p>
              {advice !== undefined && <p class="hint">{advice}</p>}
              {exit !== undefined && <p class="exit">{exitText(exit)}</p>}
              {look.hint !== undefined && <p class="hint">{look.hint}</p>}
            </div>
          )}
          {error === undefined && look.hint !== undefined && <p class="hint">{look.hint}</p>}
          {stderr !== '' && (
            <details class="stderr" open={state === 'failed'}>
              <summary>stderr (last lines)</summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, and a keyboard must reach it to scroll it (WCAG 2.1.1). */}
              <section class="tail" aria-label={`stderr of ${name}`} tabIndex={0}>
                <pre>{stderr}</pre>
              </section>
            </details>
          )}

          <ToolList server={server} api={api} path={path} match={toolMatch} />
          <ServerContent server={server} api={api} path={path} />
          <ServerLogs server={server} api={api} path={path} />
          <details class="fields">
            <summary>Settings</summary>
            <table>
              <tbody>
                {server.fields.map((field) => (
                  <tr key={field.field}>
                    <th scope="row">{field.field}</th>
                    <td>
                      <code>{field.value === undefined ? '—' : JSON.stringify(field.value)}</code>
                      {field.variables !== undefined && (
                        <ul class="variables">
                          {field.variables.map((v) => (
                            <li key={`${v.in}:${v.name}`}>
                              <code>{`\${${v.name}}`}</code>{' '}
                              {v.set
                                ? 'set'
                                : v.default === undefined
                                  ? 'not set: the server fails to start until it is'
                                  : `not set, so ${JSON.stringify(v.default)} (its default)`}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td class="from">
                      {field.from.kind === 'file'
                        ? `written as "${field.from.key}", line ${field.from.line}`
                        : field.from.kind === 'override'
                          ? `your "overrides", line ${field.from.line}`
                          : field.from.kind}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          {origin.source === 'user' && <EntryTools server={server} api={api} path={path} />}
          {/* A disabled server's hint says it: none of its tools reach the model. */}
          {state !== 'disabled' && <ToolsCost server={server} />}
        </div>
      )}
    </article>
  );
}

/** What its tools cost, worded by token-totals.ts with the page's other totals. */
function ToolsCost({ server }: { readonly server: ServerView }) {
  return <p class="tokens">{serverCostText(server)}</p>;
}

/**
 * Focus through a remove confirmation: on its Remove button once asked, back on Remove when it is
 * cancelled (the button that had focus is gone each time).
 */
function useConfirmationFocus(confirming: boolean) {
  const remove = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const shown = useRef(confirming);
  // Before the browser paints, not after: a focus moved later would take it from wherever the
  // person went meanwhile.
  useLayoutEffect(() => {
    if (shown.current === confirming) return;
    shown.current = confirming;
    (confirming ? confirm : remove).current?.focus();
  }, [confirming]);
  return { remove, confirm };
}

/** Where a server comes from, as its card says it: every source answers (an exhaustive switch). */
function comesFrom(origin: McpServerOrigin): string {
  switch (origin.source) {
    case 'user':
      return '';
    case 'project':
      return "From the project's .epoch/mcp.json, shared with whoever works on it.";
    case 'host':
      return `From the application (namespace ${origin.namespace}).`;
    case 'plugin':
      return `From plugin ${origin.plugin}.`;
  }
}
