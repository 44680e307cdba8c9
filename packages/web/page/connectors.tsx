// The page: the bar that stays at the top (top-bar.tsx) and the panels it opens; then every MCP
// server epoch knows, grouped by where it comes from (MCP_GROUPS), one compact row each — those
// that need the person first — that opens to its card, live, each entry that was not loaded beside
// them; above them, a file that could not be read and the problems of the files that concern no
// one server; under them, the tasks recorded (task-list.tsx). The bar's chips and "Find a tool"
// narrow the rows.

import type { McpServerSource } from '@epoch-agent/runtime';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { McpView, ServerView } from '../src/api-types.js';
import { AddServerForm } from './add-server-form.js';
import type { Api, LiveState } from './api.js';
import { FileProblems } from './file-problems.js';
import { MCP_GROUPS } from './groups.js';
import { NotLoadedCard } from './not-loaded-card.js';
import { PasteAdd } from './paste-add.js';
import { QuestionDialog } from './question-dialog.js';
import { ServerCard } from './server-card.js';
import { StateAnnouncer } from './state-announcer.js';
import {
  FILTER_OF,
  inOrder,
  rankOf,
  STATE_FILTERS,
  type StateFilter,
  stateOf,
} from './state-filter.js';
import { Summary } from './summary.js';
import { TaskListSection } from './task-list.js';
import { formatTokens } from './text.js';
import { serversTokens, toolTotals } from './token-totals.js';
import { toolMatch } from './tool-filter.js';
import { PANELS, type Panel, TopBar } from './top-bar.js';

export function Connectors({ api }: { readonly api: Api }) {
  const [view, setView] = useState<McpView>();
  const [live, setLive] = useState<LiveState>('connecting');
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<StateFilter>();
  const [panel, setPanel] = useState<Panel>();
  const [opened, setOpened] = useOpened();
  // A server just added from a panel: its row takes focus once the live view shows it.
  const [arriving, setArriving] = useState<string>();
  useEffect(() => api.watch(setView, setLive), [api]);
  usePanelFocus(panel);
  usePanelEscape(panel, setPanel);
  useArrivalFocus(view, arriving, setArriving);
  const held = useHeldRanks(view, filter);
  const match = toolMatch(query);
  const toggle = (name: string) => {
    const after = new Set(opened);
    if (!after.delete(name)) after.add(name);
    setOpened(after);
  };
  const empty =
    view !== undefined &&
    Object.values(view.groups).every((servers) => servers.length === 0) &&
    Object.values(view.notLoaded).every((entries) => entries.length === 0);
  const shows = (server: ServerView) =>
    (filter === undefined || FILTER_OF[stateOf(server)] === filter) &&
    (match === undefined || [...server.tools, ...server.toolsOff].some(match));

  const sources = Object.keys(MCP_GROUPS) as McpServerSource[];
  const narrowed = filter !== undefined || match !== undefined;
  const shown = view === undefined ? 0 : Object.values(view.groups).flat().filter(shows).length;
  return (
    <div class="page">
      <a class="skip-link" href="#servers">
        Skip to the servers
      </a>
      <TopBar
        view={view}
        api={api}
        empty={empty}
        query={query}
        onQuery={setQuery}
        filter={filter}
        onFilter={setFilter}
        panel={panel}
        onPanel={setPanel}
      />
      {/* Kept in the page while closed, so what was typed in one survives closing it. Escape
          closes it and gives focus back to its button in the bar. */}
      <div id={PANELS.add.id} class="panel" hidden={panel !== 'add'}>
        {view && (
          <AddServerForm
            api={api}
            file={view.file}
            namePattern={view.namePattern}
            onAdded={setArriving}
          />
        )}
      </div>
      <div id={PANELS.paste.id} class="panel" hidden={panel !== 'paste'}>
        {view && <PasteAdd api={api} file={view.file} onAdded={setArriving} />}
      </div>
      {/* Focusable (not in the Tab order): the skip link's target takes focus. */}
      <main id="servers" tabIndex={-1}>
        <p class="about">
          The MCP servers epoch connects, and the tools each one gives the model.
          {view && (
            <>
              {' '}
              Yours are in <code>{view.file}</code>.
            </>
          )}
        </p>
        {empty && (
          <p class="first-run-note">
            No MCP server yet. <strong>Import from…</strong>, at the top, brings in the servers your
            other MCP clients (Claude Desktop, Claude Code, Cursor, VS Code, …) already have; Add
            server and Add from JSON add one by hand.
          </p>
        )}
        {view && !empty && <Summary view={view} api={api} onFilter={setFilter} />}
        {view && !empty && <BudgetLine view={view} />}
        <LiveBanner live={live} />
        <StateAnnouncer view={view} />
        {view && <FileProblems view={view} />}
        {filter !== undefined && (
          <p class="narrowed" role="status">
            {shown === 0
              ? `No server is ${STATE_FILTERS[filter].label.toLowerCase()} now.`
              : `Only the ${shown} ${shown === 1 ? 'server' : 'servers'} ${STATE_FILTERS[filter].label.toLowerCase()}.`}{' '}
            <button type="button" onClick={() => setFilter(undefined)}>
              Show every server
            </button>
          </p>
        )}
        {view &&
          sources.map((source) => {
            const servers = inOrder(view.groups[source].filter(shows), held.ranks);
            // While narrowed: no group without a server shown, and no entry that was not loaded
            // (it has no state and no tools to match).
            const notLoaded = narrowed ? [] : view.notLoaded[source];
            if (narrowed && servers.length === 0) return null;
            return (
              <Group
                key={source}
                source={source}
                servers={servers}
                notLoadedCount={notLoaded.length}
              >
                {servers.map((server) => (
                  <ServerCard
                    key={server.name}
                    server={server}
                    api={api}
                    toolMatch={match}
                    stale={live !== 'live'}
                    open={opened.has(server.name)}
                    onToggle={() => toggle(server.name)}
                    onAct={() => held.hold(server)}
                  />
                ))}
                {notLoaded.map((entry) => (
                  <NotLoadedCard key={`${entry.at.file}:${entry.name}`} entry={entry} />
                ))}
              </Group>
            );
          })}
        {/* Not narrowed by the chips (it lists no server): kept while they narrow, so a result
            being followed goes on. */}
        {view && <TaskListSection api={api} view={view} />}
      </main>
      {/* Over the page whenever a server asks; every open page shows it, the first answer wins. */}
      {view && <QuestionDialog questions={view.questions} api={api} />}
    </div>
  );
}

interface GroupProps {
  readonly source: McpServerSource;
  readonly servers: readonly ServerView[];
  readonly notLoadedCount: number;
  readonly children: ComponentChildren;
}

function Group({ source, servers, notLoadedCount, children }: GroupProps) {
  const group = MCP_GROUPS[source];
  const tokens = serversTokens(servers);
  return (
    <section class="group" data-group={source}>
      {/* Focusable by script: where focus goes when its last card is removed. */}
      <h2 tabIndex={-1}>
        {group.title} <span class="count">{servers.length}</span>
        {tokens > 0 && <span class="cost">≈ {formatTokens(tokens)} of context</span>}
      </h2>
      <p class="about">{group.about}</p>
      {servers.length === 0 && notLoadedCount === 0 && <p class="empty">{group.empty}</p>}
      {children}
    </section>
  );
}

const OPENED_KEY = 'epoch-web-opened';

/**
 * The servers whose cards are open, kept for the tab (sessionStorage): a reload, or the trip
 * through an OAuth login, comes back to the cards that were open.
 */
function useOpened(): [ReadonlySet<string>, (opened: ReadonlySet<string>) => void] {
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => {
    try {
      const kept: unknown = JSON.parse(sessionStorage.getItem(OPENED_KEY) ?? '[]');
      return new Set(Array.isArray(kept) ? kept.filter((name) => typeof name === 'string') : []);
    } catch {
      return new Set();
    }
  });
  const keep = (next: ReadonlySet<string>) => {
    setOpened(next);
    sessionStorage.setItem(OPENED_KEY, JSON.stringify([...next]));
  };
  return [opened, keep];
}

/**
 * The ranks of the servers the person acted on, kept while the page shows the same servers under
 * the same chip: a server switched off (or reconnected) stays where it was instead of jumping to
 * another part of its group, with the page scrolling after it. A new set of servers or another
 * chip orders every row by its state again.
 */
function useHeldRanks(view: McpView | undefined, filter: StateFilter | undefined) {
  const ranks = useRef(new Map<string, number>());
  const shape = useRef('');
  const names =
    view === undefined ? [] : Object.values(view.groups).flatMap((g) => g.map((s) => s.name));
  const now = JSON.stringify([filter ?? null, names]);
  if (now !== shape.current) {
    shape.current = now;
    ranks.current = new Map();
  }
  return {
    ranks: ranks.current,
    hold: (server: ServerView) => {
      if (!ranks.current.has(server.name)) ranks.current.set(server.name, rankOf(server));
    },
  };
}

/**
 * Escape in the open panel (one no field inside took for itself) closes it, focus back on its
 * button in the bar.
 */
function usePanelEscape(panel: Panel | undefined, setPanel: (panel: undefined) => void): void {
  useEffect(() => {
    if (panel === undefined) return;
    const { id } = PANELS[panel];
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (!(event.target instanceof Node && document.getElementById(id)?.contains(event.target))) {
        return;
      }
      event.preventDefault();
      setPanel(undefined);
      document.querySelector<HTMLElement>(`[aria-controls="${id}"]`)?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [panel, setPanel]);
}

/**
 * Focus on the row of the server just added, once the live view has it: the person's next step
 * (open it, see it connect) is there, not in the form they filled in. A server the view has but
 * the chips hide is let go of: focus stays where it is.
 */
function useArrivalFocus(
  view: McpView | undefined,
  arriving: string | undefined,
  setArriving: (name: string | undefined) => void,
): void {
  useEffect(() => {
    if (arriving === undefined || view === undefined) return;
    if (!Object.values(view.groups).some((servers) => servers.some((s) => s.name === arriving))) {
      return;
    }
    setArriving(undefined);
    document
      .querySelector<HTMLElement>(`article[data-server="${CSS.escape(arriving)}"] button.row`)
      ?.focus();
  }, [view, arriving, setArriving]);
}

/** A panel opened from the bar takes focus at its first field. */
function usePanelFocus(panel: Panel | undefined): void {
  useEffect(() => {
    if (panel === undefined) return;
    document
      .getElementById(PANELS[panel].id)
      ?.querySelector<HTMLElement>('input, textarea, select')
      ?.focus();
  }, [panel]);
}

/**
 * What every request carries of tool definitions now, against the budget; past it, the tools of
 * the largest servers are found on demand instead (marked on their cards).
 */
function BudgetLine({ view }: { readonly view: McpView }) {
  const { onDemand, tokens, besides } = toolTotals(view);
  const found =
    onDemand > 0 && `${onDemand} ${onDemand === 1 ? 'tool is' : 'tools are'} found on demand`;
  // The groups' headings add up the servers' own tools: the line says what else the total holds.
  const parts =
    besides === 0
      ? found && `; ${found} through mcp_search_tools`
      : `: the servers' tools ≈ ${formatTokens(tokens - besides)}, and ${
          found
            ? `mcp_search_tools ≈ ${formatTokens(besides)}, through which ${found}`
            : `the runtime's own tools ≈ ${formatTokens(besides)}`
        }`;
  return (
    <p class="budget">
      Tool definitions in every request: ≈ {formatTokens(tokens)} of a budget of{' '}
      {formatTokens(view.toolBudgetTokens)} (<code>tool_budget_tokens</code>){parts}.
    </p>
  );
}

function LiveBanner({ live }: { readonly live: LiveState }) {
  switch (live) {
    case 'live':
      return null;
    case 'connecting':
      return <p class="banner">Connecting to epoch web…</p>;
    case 'lost':
      return (
        <p class="banner problem" role="alert">
          Lost the connection to epoch web; trying again. If it was stopped, start it again with{' '}
          <code>epoch web</code>.
        </p>
      );
    case 'refused':
      return (
        <p class="banner problem" role="alert">
          epoch web refused this page's key: this page belongs to an earlier launch. Open the URL
          that <code>epoch web</code> printed this time.
        </p>
      );
  }
}
