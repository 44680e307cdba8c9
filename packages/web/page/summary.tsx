// The line at the top of the page: how many servers there are and in which states (the words of
// their cards; a count a state chip shows, "4 failed", is a button that narrows the page to them),
// how many tools the model gets from them and what those cost in every request, all counted from
// the live view; and Reconnect failed, which starts over the servers that are failed or
// reconnecting, shown only when there is one (or it has just run). Idle servers are left alone
// (their next tool call connects them, which is the point of the idle timeout), as are those that
// need a login (a login is what fixes them).
import type { McpServerState, McpServerStatus } from '@epoch-agent/runtime';
import { useState } from 'preact/hooks';
import type { McpView, ServerView } from '../src/api-types.js';
import type { Api } from './api.js';
import { FILTER_OF, type StateFilter, stateOf } from './state-filter.js';
import { STATE_LOOKS } from './states.js';
import { formatTokens, serverText } from './text.js';
import { toolTotals } from './token-totals.js';

const RECONNECTED: readonly McpServerState[] = ['failed', 'reconnecting'];

interface Props {
  readonly view: McpView;
  readonly api: Api;
  readonly onFilter: (filter: StateFilter) => void;
}

export function Summary({ view, api, onFilter }: Props) {
  const servers = Object.values(view.groups).flat();
  const states = countStates(servers);
  // The same total as the budget line's, from the one function that counts it.
  const { tools, onDemand, tokens } = toolTotals(view);
  return (
    <div class="summary">
      <p class="summary-line">
        {servers.length} {servers.length === 1 ? 'server' : 'servers'}
        {states.map(({ state, count }, i) => {
          const words = `${count} ${STATE_LOOKS[state].word}`;
          const filter = FILTER_OF[state];
          return (
            <span key={state}>
              {i === 0 ? ': ' : ', '}
              {filter === undefined ? (
                words
              ) : (
                <button
                  type="button"
                  class="link"
                  data-filter={filter}
                  title="Show only these servers"
                  onClick={() => onFilter(filter)}
                >
                  {words}
                </button>
              )}
            </span>
          );
        })}{' '}
        · {tools} {tools === 1 ? 'tool' : 'tools'}
        {onDemand > 0 && `, ${onDemand} on demand`} · ≈ {formatTokens(tokens)}
      </p>
      <ReconnectFailed servers={servers} api={api} />
    </div>
  );
}

/** `3 connected, 1 failed, 1 disabled`: each state's count, in the order of STATE_LOOKS. */
function countStates(
  servers: readonly ServerView[],
): { readonly state: McpServerState; readonly count: number }[] {
  const counts = new Map<McpServerState, number>();
  for (const server of servers) {
    const state = stateOf(server);
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return (Object.keys(STATE_LOOKS) as McpServerState[]).flatMap((state) => {
    const count = counts.get(state);
    return count === undefined ? [] : [{ state, count }];
  });
}

function ReconnectFailed({ servers, api }: { servers: readonly ServerView[]; api: Api }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<string>();
  const targets = servers.filter((server) => RECONNECTED.includes(stateOf(server)));
  // Never `disabled`: a disabled button loses focus, and focus would fall to the page's start
  // each time the last failed server came back. Focus stays on it; the report is announced.
  const inactive = busy || targets.length === 0;

  const reconnectAll = async () => {
    if (inactive) return;
    setBusy(true);
    setReport(undefined);
    const outcomes = await Promise.all(
      targets.map(async ({ name }) => {
        const result = await api.call<{ status: McpServerStatus }>(
          'POST',
          `/api/mcp/${encodeURIComponent(name)}/reconnect`,
        );
        return result.ok
          ? `${name} ${STATE_LOOKS[result.value.status.state].word}`
          : `${name}: ${result.error.message}`;
      }),
    );
    setBusy(false);
    setReport(
      `Reconnected ${outcomes.length} ${outcomes.length === 1 ? 'server' : 'servers'}: ${outcomes.join('; ')}.`,
    );
  };

  // Nothing to reconnect: no button (a "Reconnect failed (0)" offers nothing), unless it has just
  // run, when it keeps its place and focus beside what it reports.
  if (targets.length === 0 && !busy && report === undefined) return null;
  return (
    <>
      <button
        type="button"
        class="reconnect-all"
        onClick={reconnectAll}
        aria-disabled={inactive}
        title="Starts over every server that is failed or reconnecting. Idle servers connect at their next tool call; a server that needs a login needs Log in."
      >
        {busy ? 'Reconnecting…' : `Reconnect failed (${targets.length})`}
      </button>
      {report !== undefined && (
        <p class="notice" role="status">
          {serverText(report)}
        </p>
      )}
    </>
  );
}
