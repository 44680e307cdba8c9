// The page: every MCP server epoch knows, grouped by where it comes from (MCP_GROUPS), live, each
// entry that was not loaded beside them; at the top, a file that could not be read and the
// problems of the files that concern no one server; and the form that adds one.

import type { McpServerSource } from '@epoch-agent/runtime';
import { useEffect, useState } from 'preact/hooks';
import type { McpView } from '../src/api-types.js';
import { AddServerForm } from './add-server-form.js';
import type { Api, LiveState } from './api.js';
import { FileProblems } from './file-problems.js';
import { MCP_GROUPS } from './groups.js';
import { ImportDialog } from './import-dialog.js';
import { NotLoadedCard } from './not-loaded-card.js';
import { PasteAdd } from './paste-add.js';
import { ServerCard } from './server-card.js';
import { StateAnnouncer } from './state-announcer.js';
import { Summary } from './summary.js';
import { formatTokens } from './text.js';
import { toolTotals } from './token-totals.js';
import { ToolFilter, toolMatch } from './tool-filter.js';

export function Connectors({ api }: { readonly api: Api }) {
  const [view, setView] = useState<McpView>();
  const [live, setLive] = useState<LiveState>('connecting');
  const [query, setQuery] = useState('');
  const match = toolMatch(query);
  useEverySecond();
  useEffect(() => api.watch(setView, setLive), [api]);

  const sources = Object.keys(MCP_GROUPS) as McpServerSource[];
  return (
    <main class="page">
      <header>
        <h1>Connectors</h1>
        <p class="about">
          The MCP servers epoch connects, and the tools each one gives the model.
          {view && (
            <>
              {' '}
              Yours are in <code>{view.file}</code>.
            </>
          )}
        </p>
        {view && <Summary view={view} api={api} />}
        {view && <BudgetLine view={view} />}
        {view && <ToolFilter view={view} query={query} onQuery={setQuery} />}
      </header>
      <LiveBanner live={live} />
      <StateAnnouncer view={view} />
      {view && <FileProblems view={view} />}
      {view &&
        sources.map((source) => {
          const group = MCP_GROUPS[source];
          // While filtering: only the servers with a tool that matches, and no group without one
          // (an entry that was not loaded has no tools to match).
          const servers = view.groups[source].filter(
            (server) => match === undefined || [...server.tools, ...server.toolsOff].some(match),
          );
          const notLoaded = match === undefined ? view.notLoaded[source] : [];
          if (match !== undefined && servers.length === 0) return null;
          const tokens = servers.reduce((sum, server) => sum + server.contextTokens, 0);
          return (
            <section class="group" data-group={source} key={source}>
              {/* Focusable by script: where focus goes when its last card is removed. */}
              <h2 tabIndex={-1}>
                {group.title} <span class="count">{servers.length}</span>
                {tokens > 0 && <span class="cost">≈ {formatTokens(tokens)} of context</span>}
              </h2>
              <p class="about">{group.about}</p>
              {servers.length === 0 && notLoaded.length === 0 ? (
                <p class="empty">{group.empty}</p>
              ) : (
                servers.map((server) => (
                  <ServerCard
                    key={server.name}
                    server={server}
                    api={api}
                    toolMatch={match}
                    stale={live !== 'live'}
                  />
                ))
              )}
              {notLoaded.map((entry) => (
                <NotLoadedCard key={`${entry.at.file}:${entry.name}`} entry={entry} />
              ))}
            </section>
          );
        })}
      {view && <AddServerForm api={api} file={view.file} namePattern={view.namePattern} />}
      {view && <PasteAdd api={api} file={view.file} />}
      {view && <ImportDialog api={api} />}
    </main>
  );
}

/**
 * What every request carries of tool definitions now, against the budget; past it, the tools of
 * the largest servers are found on demand instead (marked on their cards).
 */
function BudgetLine({ view }: { readonly view: McpView }) {
  const { onDemand, tokens } = toolTotals(view);
  return (
    <p class="budget">
      Tool definitions in every request: ≈ {formatTokens(tokens)} of a budget of{' '}
      {formatTokens(view.toolBudgetTokens)} (<code>tool_budget_tokens</code>)
      {onDemand > 0 &&
        `; ${onDemand} ${onDemand === 1 ? 'tool is' : 'tools are'} found on demand through mcp_search_tools`}
      .
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

/**
 * Renders the page again every second, so countdowns to reconnect attempts count down and the
 * time a server has been connecting counts up.
 */
function useEverySecond(): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), 1000);
    return () => clearInterval(timer);
  }, []);
}
