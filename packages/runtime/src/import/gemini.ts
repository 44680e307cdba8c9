// Gemini CLI: `~/.gemini/settings.json` and a project's `.gemini/settings.json`, `mcpServers` with
// command/args/env/cwd, `url` (SSE) or `httpUrl` (Streamable HTTP), headers, `timeout` in
// milliseconds, includeTools/excludeTools; `$NAME` and `${NAME}` in values.
import { join } from 'node:path';
import { readMember, userAndProject } from './client-file.js';
import type { ClientReader } from './found-server.js';
import { COMMON_RULES, type FieldRules, notMapped, seconds, toolList } from './translate-entry.js';

const RULES: FieldRules = {
  ...COMMON_RULES,
  httpUrl: (value, draft) => {
    draft.entry.transport = 'http';
    COMMON_RULES.url?.(value, draft);
  },
  timeout: seconds('timeout', 'timeout', 'ms'),
  includeTools: toolList('includeTools', 'include_tools'),
  excludeTools: toolList('excludeTools', 'exclude_tools'),
  trust: notMapped(
    'trust is not imported: epoch asks for no confirmation before a tool call, so there is nothing to trust.',
  ),
  description: notMapped(
    'description is not imported: epoch has no such setting (a comment in the file can say it).',
  ),
  oauth: notMapped(
    'oauth (its OAuth client settings) is not imported: set "oauth" by hand if the server needs a pre-registered client.',
  ),
  authProviderType: notMapped(
    'authProviderType is not imported: epoch logs in with OAuth only ("epoch mcp login").',
  ),
  targetAudience: notMapped(
    'targetAudience is not imported: epoch has no Google credentials login.',
  ),
  targetServiceAccount: notMapped(
    'targetServiceAccount is not imported: epoch has no Google credentials login.',
  ),
  tcp: notMapped(
    'tcp (a WebSocket address) is not imported: epoch speaks stdio, SSE and Streamable HTTP.',
  ),
};

export const gemini: ClientReader = {
  label: 'Gemini CLI',
  files: (places) =>
    userAndProject('gemini', places, join(places.home, '.gemini', 'settings.json'), [
      '.gemini',
      'settings.json',
    ]),
  read: readMember('mcpServers', { rules: RULES, refs: 'shell' }),
};
