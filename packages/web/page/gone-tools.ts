// A tool that leaves its server's list while its "Try" was open is kept on the page, marked gone,
// with what was typed in its form, until the person dismisses it: a list change (a server's
// list_changed, a restart) must not take away what someone was writing. Which Trys were opened
// is kept for the page's life, by the tool's path in the API.
import { useRef, useState } from 'preact/hooks';
import type { ToolView } from '../src/api-types.js';

const opened = new Set<string>();

/** The Try of the tool at `path` (`/api/mcp/<server>/tools/<tool>`) was opened. */
export function tryOpened(path: string): void {
  opened.add(path);
}

export interface GoneTools {
  /** Tools no longer listed whose Try was opened: as last listed. */
  readonly gone: readonly ToolView[];
  /** Lets a gone tool go: its row, and what was typed in it. */
  readonly dismiss: (tool: ToolView) => void;
}

/** `listed`: the server's tools now; `serverPath`: `/api/mcp/<server>`. */
export function useGoneTools(serverPath: string, listed: readonly ToolView[]): GoneTools {
  const seen = useRef(new Map<string, ToolView>());
  const [, redraw] = useState(0);
  const pathOf = (tool: ToolView) => `${serverPath}/tools/${encodeURIComponent(tool.serverName)}`;
  const now = new Set(listed.map((tool) => tool.serverName));
  const gone: ToolView[] = [];
  for (const [name, tool] of seen.current) {
    if (now.has(name)) continue;
    if (opened.has(pathOf(tool))) gone.push(tool);
    else seen.current.delete(name);
  }
  for (const tool of listed) seen.current.set(tool.serverName, tool);
  const dismiss = (tool: ToolView) => {
    opened.delete(pathOf(tool));
    seen.current.delete(tool.serverName);
    redraw((n) => n + 1);
  };
  return { gone, dismiss };
}
