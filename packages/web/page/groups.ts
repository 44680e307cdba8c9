// The connectors page's groups, one per McpServerSource. A Record (McpGroups), not an array: a
// source added to the plugin without a group here fails to compile. An array (`satisfies
// readonly {…}[]`) would let a missing source compile, and the page, which renders group by group,
// would show none of its servers and no error. The page renders the groups in this object's key
// order.
import type { McpGroups } from '../src/api-types.js';

export interface McpGroup {
  readonly title: string;
  /** Where these servers come from and where to change them. */
  readonly about: string;
  /** What the group says when it has no server. */
  readonly empty: string;
}

export const MCP_GROUPS: McpGroups<McpGroup> = {
  user: {
    title: 'Yours',
    about: 'From your mcp.json: add them here or write them there by hand.',
    empty: 'None yet: Import from…, Add server or Add from JSON, at the top, adds one.',
  },
  project: {
    title: 'From the project',
    about:
      "From the project's .epoch/mcp.json (here or in a parent directory, up to the repository's root): written by whoever wrote the project. A name your own file has stays yours.",
    empty: 'The project brings none.',
  },
  host: {
    title: 'From the application',
    about:
      'Brought by the application that embeds epoch; it decides them, nothing on disk holds them.',
    empty: 'The application brings none.',
  },
  plugin: {
    title: 'From plugins',
    about: "From installed plugins' mcp.json files; named <plugin>__<server>.",
    empty: 'No installed plugin brings one.',
  },
};
