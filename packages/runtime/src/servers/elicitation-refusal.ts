// `"elicitation": "ask"` where it may not be written: a project's `.epoch/mcp.json` and a plugin's
// mcp.json. Whether a server may put questions to the user (README "Servers that ask you") is the
// user's decision, never that of whoever wrote a repository or a plugin: a server that asks can ask
// for anything, a password included. Such an entry keeps declining unasked, with a warning pointing
// at the field and at the override that would let it ask.
import { type Diagnostic, formatPath } from '@epoch-agent/infra';
import type { McpConfigPositions, McpServerConfig } from '@epoch-agent/plugin-mcp';
import { keyAt, type RuntimeDiagnosticCode } from './server-names.js';

export interface ElicitationRefusalFile {
  /** The file the entries were read from. */
  readonly file: string;
  /** The file as a sentence names it ("the project's", "plugin "x"'s"). */
  readonly whose: string;
  /** The server's full name, as the user's `overrides` names it (`<plugin>__<server>`). */
  readonly fullName: (name: string) => string;
}

/** `configs` with every `elicitation: "ask"` dropped (their source's default: decline), and a warning for each. */
export function refuseElicitationAsk(
  configs: readonly McpServerConfig[],
  positions: McpConfigPositions | undefined,
  { file, whose, fullName }: ElicitationRefusalFile,
): { servers: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const servers = configs.map((config) => {
    if (config.elicitation !== 'ask') return config;
    const { elicitation: _refused, ...declining } = config;
    const written = positions?.servers.get(config.name);
    const at = written?.fields.get('elicitation') ?? keyAt(written);
    const name = fullName(config.name);
    diagnostics.push({
      severity: 'warning',
      code: 'elicitation_refused' satisfies RuntimeDiagnosticCode,
      file,
      path: formatPath(['servers', config.name, 'elicitation']),
      line: at.line,
      column: at.column,
      message: `"elicitation": "ask" of server "${config.name}" in ${whose} ${file} is ignored: its questions are declined without asking you. Only your own mcp.json lets it ask: add "overrides": { "${name}": { "elicitation": "ask" } } there.`,
    });
    return declining as McpServerConfig;
  });
  return { servers, diagnostics };
}
