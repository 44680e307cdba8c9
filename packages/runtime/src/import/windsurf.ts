// Windsurf: `~/.codeium/windsurf/mcp_config.json`, `mcpServers` with command/args/env, or
// `serverUrl` (or `url`) and headers, `disabled`, `disabledTools`, and `${env:NAME}`.
import { join } from 'node:path';
import { readMember } from './client-file.js';
import type { ClientReader } from './found-server.js';
import { COMMON_RULES, type FieldRules, notMapped, toolList } from './translate-entry.js';

const APPROVALS =
  'is not imported: epoch asks for no approval before a tool call, so there is nothing to allow.';

const RULES: FieldRules = {
  ...COMMON_RULES,
  serverUrl: (value, draft) => COMMON_RULES.url?.(value, draft),
  disabledTools: toolList('disabledTools', 'exclude_tools'),
  alwaysAllow: notMapped(`alwaysAllow ${APPROVALS}`),
  autoApprove: notMapped(`autoApprove ${APPROVALS}`),
};

export const windsurf: ClientReader = {
  label: 'Windsurf',
  files: (places) => [
    {
      client: 'windsurf',
      path: join(places.home, '.codeium', 'windsurf', 'mcp_config.json'),
      scope: 'user',
    },
  ],
  read: readMember('mcpServers', { rules: RULES, refs: 'editor' }),
};
