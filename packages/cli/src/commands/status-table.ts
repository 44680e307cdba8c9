// The server table of `epoch mcp status`: one row per server, the reason for a failure indented
// right under its row. A pipe gets it whole once every server has settled; a terminal gets each
// row the moment its server settles, in the order they settle, so one slow server hides nothing.
import type { McpServerState, McpServerStatus } from '@epoch-agent/runtime';
import type { ConfiguredServer } from '@epoch-agent/runtime/config';
import { columnWidths, renderTable, tableLine } from '../render/table.js';
import { toolCount } from '../render/tools.js';
import { statusDetail } from './server-status.js';

const HEADER = ['NAME', 'SOURCE', 'TRANSPORT', 'STATE', 'PROTOCOL', 'TOOLS'];

/** Every row at once, each column as wide as its widest cell; `servers` say where each is written. */
export function renderStatuses(
  statuses: readonly McpServerStatus[],
  servers: readonly ConfiguredServer[],
): string {
  const [header = '', ...lines] = renderTable(HEADER, statuses.map(cells)).trimEnd().split('\n');
  const rows = statuses.map((status, i) => withDetail(lines[i] ?? '', status, servers));
  return `${header}\n${rows.join('')}`;
}

// A state's name is one of these: a Record, so a new state is counted in the STATE column.
const STATE_NAMES: Record<McpServerState, null> = {
  connected: null,
  connecting: null,
  reconnecting: null,
  idle: null,
  notStarted: null,
  needsLogin: null,
  failed: null,
  disconnected: null,
  disabled: null,
  needsApproval: null,
};
const WIDEST_STATE = Object.keys(STATE_NAMES).reduce((a, b) => (b.length > a.length ? b : a));
// A protocol revision is a date.
const REVISION = 'YYYY-MM-DD';

/**
 * The table printed a row at a time, as each server settles. A row printed early cannot know the
 * cells of rows not seen yet, so the columns are as wide as what the config says before anything
 * starts (names, sources, transports) and as the widest state and revision; TOOLS, the one cell of
 * no bounded width, is last.
 */
export class LiveStatusTable {
  readonly #widths: readonly number[];
  readonly #servers: readonly ConfiguredServer[];
  readonly #shown = new Set<string>();
  /** A server held for approval is asked about once the runtime is built: its row waits for that. */
  readonly #asks: boolean;

  constructor(servers: readonly ConfiguredServer[], asks: boolean) {
    this.#servers = servers;
    this.#asks = asks;
    this.#widths = columnWidths([
      HEADER,
      ...servers.map(({ config, origin }) => [
        config.name,
        origin.source,
        config.transport,
        WIDEST_STATE,
        REVISION,
      ]),
    ]);
  }

  get header(): string {
    return `${tableLine(HEADER, this.#widths)}\n`;
  }

  /**
   * Prints a server's row the first time it has settled. Not while it is connecting, nor when it
   * was closed first (Ctrl-C while it started): it did not settle, and the command is ending.
   */
  readonly onStatus = (status: McpServerStatus, print: (text: string) => void): void => {
    if (status.state === 'connecting' || status.state === 'disconnected') return;
    if (status.state === 'needsApproval' && this.#asks) return;
    if (this.#shown.has(status.name)) return;
    this.#print(status, print);
  };

  /** The rows not printed yet: servers held for approval, as the questions left them. */
  rest(statuses: readonly McpServerStatus[], print: (text: string) => void): void {
    for (const status of statuses) {
      if (status.state === 'connecting' || this.#shown.has(status.name)) continue;
      this.#print(status, print);
    }
  }

  #print(status: McpServerStatus, print: (text: string) => void): void {
    this.#shown.add(status.name);
    print(withDetail(tableLine(cells(status), this.#widths), status, this.#servers));
  }
}

/**
 * A server's row; TOOLS is what the model is offered, how many the user turned off and how many are
 * withheld until approved: `15, 3 off, 1 withheld`.
 */
function cells(status: McpServerStatus): string[] {
  return [
    status.name,
    status.source,
    status.transport,
    status.state,
    status.state === 'connected' ? status.protocol.version : '-',
    status.state === 'disabled' || status.state === 'needsApproval'
      ? '-'
      : toolCount(status.toolCount, status.toolsOff, status.toolsWithheld),
  ];
}

function withDetail(
  line: string,
  status: McpServerStatus,
  servers: readonly ConfiguredServer[],
): string {
  const server = servers.find(({ config }) => config.name === status.name);
  return [line, ...statusDetail(status, server)].map((text) => `${text}\n`).join('');
}
