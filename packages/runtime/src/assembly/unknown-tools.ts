// A name in include_tools / exclude_tools that no tool of its server has: most often a typo, or a
// tool the server renamed, and then the tool meant is offered after all (or never). Known only
// once the server has answered, so these warnings are worked out when asked for, from the live
// lists of the connected servers, and not kept: an edit or a tools/list_changed changes them.
import { visibleText } from '@epoch-agent/infra';
import {
  type McpRegistry,
  type McpToolPattern,
  serverToolName,
  unmatchedPatterns,
} from '@epoch-agent/plugin-mcp';
import { suggest } from '@epoch-agent/plugin-mcp/config';
import type { RuntimeDiagnostic, RuntimeDiagnosticCode } from '../servers/server-names.js';

const NAMES_SHOWN = 10;

export function unknownToolWarnings(mcp: McpRegistry): RuntimeDiagnostic[] {
  return mcp.statuses().flatMap((status) => {
    const config = mcp.configOf(status.name);
    if (status.state !== 'connected' || config === undefined) return [];
    // Asked for at every view of the page: a server with no lists costs nothing more.
    const { includeTools, excludeTools } = config.choice;
    if (includeTools === undefined && excludeTools.length === 0) return [];
    // A withheld tool is still the server's (it waits for approval): a pattern naming it is no typo.
    const names = [
      ...[...mcp.toolsOf(status.name), ...mcp.toolsOffOf(status.name)].map(serverToolName),
      ...mcp.withheldOf(status.name).map((tool) => tool.name),
    ];
    const included = new Set(config.choice.includeTools);
    return unmatchedPatterns(config.choice, names).map(
      (pattern): RuntimeDiagnostic => ({
        severity: 'warning',
        code: 'unknown_tool' satisfies RuntimeDiagnosticCode,
        source: status.source,
        file: pattern.at.file,
        path: pattern.at.path,
        line: pattern.at.line,
        column: pattern.at.column,
        message: message(status.name, pattern, included.has(pattern), names),
      }),
    );
  });
}

function message(
  server: string,
  { pattern }: McpToolPattern,
  included: boolean,
  names: readonly string[],
): string {
  // Tool names are the server's text: shown, never interpreted by the terminal.
  const shown = (name: string) => `"${visibleText(name)}"`;
  const guess = pattern.includes('*') ? undefined : suggest(pattern, names);
  const hint =
    guess !== undefined
      ? `Did you mean ${shown(guess)}?`
      : `Its tools are: ${names.slice(0, NAMES_SHOWN).map(shown).join(', ') || 'none'}${names.length > NAMES_SHOWN ? ', …' : ''}.`;
  return `${shown(pattern)} in ${included ? 'include_tools' : 'exclude_tools'} of server "${server}" matches none of the ${names.length} tools it offers, so it ${included ? 'lets no tool through' : 'turns nothing off'}. ${hint}`;
}
