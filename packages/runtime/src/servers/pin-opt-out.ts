// `pin_tools: false` where it may not be written: a project's `.epoch/mcp.json` and a plugin's
// mcp.json. Turning off the check of a server's tool definitions is the user's decision (their own
// mcp.json) or the host's, never that of whoever wrote a repository or a plugin — the very party
// the pins guard against. Such an entry keeps its pins, with a warning pointing at the field.
import { type Diagnostic, formatPath } from '@epoch-agent/infra';
import type { McpConfigPositions, McpServerConfig } from '@epoch-agent/plugin-mcp';
import { keyAt, type RuntimeDiagnosticCode } from './server-names.js';

/**
 * `configs` with every `pinTools: false` dropped (pinned, as by default), and a warning for each.
 * `whose`: the file as a sentence names it ("the project's", "plugin "x"'s").
 */
export function refusePinOptOut(
  configs: readonly McpServerConfig[],
  positions: McpConfigPositions | undefined,
  file: string,
  whose: string,
): { servers: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const servers = configs.map((config) => {
    if (config.pinTools !== false) return config;
    const { pinTools: _refused, ...pinned } = config;
    const written = positions?.servers.get(config.name);
    const key = written?.fields.has('pin_tools') !== false ? 'pin_tools' : 'pinTools';
    const at = written?.fields.get(key) ?? keyAt(written);
    diagnostics.push({
      severity: 'warning',
      code: 'pin_tools_refused' satisfies RuntimeDiagnosticCode,
      file,
      path: formatPath(['servers', config.name, key]),
      line: at.line,
      column: at.column,
      message: `"${key}": false of server "${config.name}" in ${whose} ${file} is ignored: its tools stay pinned, and a tool that changes is withheld until you approve it. Only your own mcp.json (or the host) may turn this off.`,
    });
    return pinned as McpServerConfig;
  });
  return { servers, diagnostics };
}
