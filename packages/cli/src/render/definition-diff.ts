// A withheld tool as a person reviews it: `changed tool "x"` or `new tool "x"`, then its definition
// before (what was approved) and after (what the server lists now), line by line: `-` only before,
// `+` only after, ` ` in both. Every line is the server's text, shown by visibleText and never cut:
// what is approved must be seen whole. Red and green on a terminal that takes colour.
import { visibleText } from '@epoch-agent/infra';
import type { ConfiguredServer, McpDefinitionLine, McpWithheldTool } from '@epoch-agent/runtime';

const HEAD: Record<McpWithheldTool['reason'], string> = {
  changed: 'changed tool',
  new: 'new tool',
};

const MARK: Record<McpDefinitionLine['kind'], string> = { same: ' ', removed: '-', added: '+' };

// SGR foreground colours, each closed by "default foreground" so nothing after it is coloured.
const COLOUR: Record<McpDefinitionLine['kind'], string | undefined> = {
  same: undefined,
  removed: '\x1b[31m',
  added: '\x1b[32m',
};

/** `changed tool "x"`: the tool's own name on its server, as --tool takes it. */
export function withheldHead({ name, reason }: Pick<McpWithheldTool, 'name' | 'reason'>): string {
  return `${HEAD[reason]} "${visibleText(name)}"`;
}

/** The lines of a definition diff, each with its mark, coloured when `colour`. */
export function diffText(lines: readonly McpDefinitionLine[], colour: boolean): string[] {
  return lines.map(({ kind, text }) => {
    const line = `${MARK[kind]}${visibleText(text, { max: Number.POSITIVE_INFINITY })}`;
    const code = colour ? COLOUR[kind] : undefined;
    return code === undefined ? line : `${code}${line}\x1b[39m`;
  });
}

/** Why a server has no tool withheld: all are the approved ones, or its tools are not pinned. */
export function noneWithheld({ config }: ConfiguredServer): string {
  return config.pinTools === false
    ? `the tools of ${config.name} are not pinned ("pin_tools": false in its entry), so every list it gives is offered as it is`
    : `every tool ${config.name} lists is the one approved`;
}
