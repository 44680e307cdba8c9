// The bar at the top of the page, which stays as the page scrolls: Import, Add server and Add from
// JSON (each reachable from anywhere on the page, however many servers are above them), the state
// chips that narrow the page to the servers in those states, and "Find a tool". With no server yet,
// Import is the one primary action: it brings the servers the person already has elsewhere.
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { McpView } from '../src/api-types.js';
import type { Api } from './api.js';
import { ImportDialog } from './import-dialog.js';
import { filterCounts, STATE_FILTERS, type StateFilter } from './state-filter.js';
import { ToolFilter } from './tool-filter.js';

/** The panels the bar opens under itself. */
export type Panel = 'add' | 'paste';

export const PANELS: Record<Panel, { readonly label: string; readonly id: string }> = {
  add: { label: 'Add server', id: 'add-panel' },
  paste: { label: 'Add from JSON', id: 'paste-panel' },
};

interface Props {
  readonly view: McpView | undefined;
  readonly api: Api;
  /** No server and no entry at all: Import leads. */
  readonly empty: boolean;
  readonly query: string;
  readonly onQuery: (query: string) => void;
  readonly filter: StateFilter | undefined;
  readonly onFilter: (filter: StateFilter | undefined) => void;
  readonly panel: Panel | undefined;
  readonly onPanel: (panel: Panel | undefined) => void;
}

export function TopBar(props: Props) {
  const { view, api, empty, query, onQuery, filter, onFilter, panel, onPanel } = props;
  const bar = useRef<HTMLElement>(null);
  useBarHeight(bar);
  const counts = filterCounts(view === undefined ? [] : Object.values(view.groups).flat());
  return (
    <header class="top-bar" ref={bar}>
      <div class="bar-row">
        <h1>Connectors</h1>
        <div class={empty ? 'bar-actions first-run' : 'bar-actions'}>
          <ImportDialog api={api} />
          {(Object.keys(PANELS) as Panel[]).map((which) => (
            <button
              key={which}
              type="button"
              aria-expanded={panel === which}
              aria-controls={PANELS[which].id}
              onClick={() => onPanel(panel === which ? undefined : which)}
            >
              {PANELS[which].label}
            </button>
          ))}
        </div>
      </div>
      {/* With no server, nothing to narrow or find: Import stands alone. */}
      {view !== undefined && !empty && (
        <div class="bar-row">
          <fieldset class="chips">
            <legend class="visually-hidden">Show only the servers that are</legend>
            {(Object.keys(STATE_FILTERS) as StateFilter[]).map((which) => (
              <button
                key={which}
                type="button"
                class={counts[which] === 0 ? 'chip none' : 'chip'}
                data-filter={which}
                aria-pressed={filter === which}
                onClick={() => onFilter(filter === which ? undefined : which)}
              >
                {STATE_FILTERS[which].label} <span class="chip-count">{counts[which]}</span>
              </button>
            ))}
          </fieldset>
          <ToolFilter view={view} query={query} onQuery={onQuery} />
        </div>
      )}
    </header>
  );
}

/**
 * Tells the page how tall the bar is (`--bar-height`), so that what focus or a link scrolls to
 * stops below the bar instead of under it.
 */
function useBarHeight(bar: { readonly current: HTMLElement | null }): void {
  useLayoutEffect(() => {
    const element = bar.current;
    if (element === null) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.setProperty(
        '--bar-height',
        `${Math.ceil(element.getBoundingClientRect().height)}px`,
      );
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [bar]);
}
