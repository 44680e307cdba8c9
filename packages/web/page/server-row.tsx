// A server's compact row: the one line the page shows of each server until it is opened — its
// state (dot, word, and the live counter of a connect or a reconnect), name, tool count and cost,
// the first line of a failed server's error, the tools that match "Find a tool" — and its on/off
// switch; Review… for one that waits for approval, and how many of its tools changed since
// approved (each opens its dialog). The name and state are one button that opens the server's card below the row.
import type { McpServerState } from '@epoch-agent/runtime';
import type { ServerView, ToolView } from '../src/api-types.js';
import type { Api } from './api.js';
import { ApprovalDialog } from './approval-dialog.js';
import { type ChoiceOutcome, ChoiceSwitch } from './choice-switch.js';
import { ForSeconds, InSeconds } from './live-time.js';
import { STATE_LOOKS } from './states.js';
import { formatTokens, serverText } from './text.js';
import { ToolChangesDialog } from './tool-changes.js';

/** At most this many matching tools are named in a row; the card lists them all. */
const MATCHES_SHOWN = 12;

interface Props {
  readonly server: ServerView;
  readonly state: McpServerState;
  readonly api: Api;
  readonly path: string;
  readonly stale: boolean;
  readonly open: boolean;
  /** The id of the card's body (controlled by the row's button while it is shown). */
  readonly bodyId: string;
  readonly onToggle: () => void;
  /** While "Find a tool" filters: this server's tools that match. */
  readonly matches: readonly ToolView[] | undefined;
  readonly onOutcome: (outcome: ChoiceOutcome) => void;
  /** The person turned the server on or off. */
  readonly onAct: () => void;
}

export function ServerRow(props: Props) {
  const { server, state, api, path, stale, open, bodyId, onToggle, matches, onOutcome, onAct } =
    props;
  const { name, status } = server;
  const look = STATE_LOOKS[state];
  const error = status !== undefined && 'error' in status ? status.error : undefined;
  return (
    <>
      <div class="head">
        <h3>
          <button
            type="button"
            class="row"
            aria-expanded={open}
            {...(open ? { 'aria-controls': bodyId } : {})}
            onClick={onToggle}
          >
            <span class={`dot ${stale ? 'unknown' : look.tone}`} aria-hidden="true" />
            <span class="name">{name}</span>
            {stale ? (
              <>
                <span class="state unknown">state unknown</span>
                <span class="detail">last known: {look.word}</span>
              </>
            ) : (
              <>
                <span class={`state ${look.tone}`}>{look.word}</span>
                <StateDetail server={server} />
              </>
            )}
            <span class="facts">{facts(server, state)}</span>
          </button>
        </h3>
        {server.status?.state === 'needsApproval' && (
          <ApprovalDialog server={server} status={server.status} api={api} path={path} />
        )}
        {server.status !== undefined && server.status.toolsWithheld > 0 && (
          <ToolChangesDialog
            server={server}
            count={server.status.toolsWithheld}
            api={api}
            path={path}
          />
        )}
        <span class="row-switch">
          <ChoiceSwitch
            api={api}
            path={`${path}/enabled`}
            server={server}
            isOn={(view) => view.status?.state !== 'disabled'}
            label={`Server ${name}`}
            onOutcome={onOutcome}
            onAsk={onAct}
          />
        </span>
      </div>
      {!open && error !== undefined && (
        <p class="row-problem">{serverText(error.message.split('\n')[0] ?? '')}</p>
      )}
      {!open && matches !== undefined && matches.length > 0 && (
        <p class="matches">
          {matches.length === 1 ? '1 tool matches: ' : `${matches.length} tools match: `}
          {matches.slice(0, MATCHES_SHOWN).map((tool, i) => (
            <span key={tool.name}>
              {i > 0 && ', '}
              <code data-tool={tool.name}>{serverText(tool.serverName)}</code>
            </span>
          ))}
          {matches.length > MATCHES_SHOWN && `, and ${matches.length - MATCHES_SHOWN} more`}
        </p>
      )}
    </>
  );
}

/** What the state word alone does not say: the live counters, the server's own name and era. */
function StateDetail({ server }: { readonly server: ServerView }) {
  const { status } = server;
  if (status === undefined) return null;
  switch (status.state) {
    case 'connecting':
      return (
        <span class="detail">
          <ForSeconds since={status.since} />
        </span>
      );
    case 'reconnecting':
      return (
        <span class="detail">
          attempt {status.reconnect.attempt} of {status.reconnect.attempts}
          {status.reconnect.nextAttemptAt === undefined ? (
            ' running'
          ) : (
            <>
              {' '}
              <InSeconds at={status.reconnect.nextAttemptAt} />
            </>
          )}
        </span>
      );
    case 'idle':
      return <span class="detail">since {new Date(status.since).toLocaleTimeString()}</span>;
    case 'connected':
      return (
        <span class="detail">
          {serverText(`${status.serverInfo.name} ${status.serverInfo.version}`)}
          {` · MCP ${status.protocol.version}`}
        </span>
      );
    case 'notStarted':
      return <span class="detail">starts at its first call</span>;
    case 'needsLogin':
    case 'failed':
    case 'disconnected':
    case 'needsApproval':
    case 'disabled':
      return null;
  }
}

/** `12 tools · ≈ 2.1k tokens`: what the row says of its tools. */
function facts(server: ServerView, state: McpServerState): string {
  const all = server.tools.length + server.toolsOff.length;
  const parts = [`${all} ${all === 1 ? 'tool' : 'tools'}`];
  if (state !== 'disabled' && server.contextTokens > 0) {
    parts.push(`≈ ${formatTokens(server.contextTokens)}`);
  }
  return parts.join(' · ');
}
