// "Find a tool": one field over every server's tools, matched on the name the model is given, the
// name on the server, the title and the description; every word typed must appear (in any case),
// and separators count for nothing: `getsum` finds `get-sum`, `get_sum` and `get sum` (names are
// written every way, and a person types them without the dash).
// The page shows only the tools that match and their servers, and says how many; an empty field
// shows the page whole again (Escape empties it, as a search field does).
import type { McpView, ToolView } from '../src/api-types.js';

/** Whether a tool matches; undefined when nothing is typed (no filter). */
export type ToolMatch = (tool: ToolView) => boolean;

export function toolMatch(query: string): ToolMatch | undefined {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return undefined;
  const bare = words.map(withoutSeparators);
  return (tool) => {
    const text = [tool.name, tool.serverName, tool.title ?? '', tool.description]
      .join('\n')
      .toLowerCase();
    const joined = withoutSeparators(text);
    return words.every((word, i) => text.includes(word) || joined.includes(bare[i] as string));
  };
}

// Dashes, underscores, dots, slashes and spaces: what tool names and words are joined with.
const SEPARATORS = /[\s\-_./:]+/g;

function withoutSeparators(text: string): string {
  return text.replace(SEPARATORS, '');
}

interface Props {
  readonly view: McpView;
  readonly query: string;
  readonly onQuery: (query: string) => void;
}

export function ToolFilter({ view, query, onQuery }: Props) {
  const match = toolMatch(query);
  const servers = Object.values(view.groups).flat();
  const tools = servers.flatMap((server) => [...server.tools, ...server.toolsOff]);
  const found = match === undefined ? [] : tools.filter(match);
  const foundServers = servers.filter((server) =>
    [...server.tools, ...server.toolsOff].some((tool) => match?.(tool)),
  );
  return (
    <search class="tool-filter">
      <label for="tool-filter">Find a tool</label>
      <input
        id="tool-filter"
        type="search"
        value={query}
        placeholder="a word of its name, title or description"
        autocomplete="off"
        spellcheck={false}
        aria-describedby="tool-filter-count"
        onInput={(e) => onQuery(e.currentTarget.value)}
      />
      <span id="tool-filter-count" class="count" role="status">
        {match === undefined
          ? `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'} on ${servers.length} ${servers.length === 1 ? 'server' : 'servers'}`
          : `${found.length} of ${tools.length} tools match, on ${foundServers.length} ${foundServers.length === 1 ? 'server' : 'servers'}`}
      </span>
    </search>
  );
}
