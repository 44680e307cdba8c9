// Claude Desktop: `claude_desktop_config.json` in the app's settings directory, `mcpServers` of
// stdio servers (command, args, env). It expands no variables.
import { join } from 'node:path';
import { readMember } from './client-file.js';
import { appConfigDir, type ClientReader } from './found-server.js';
import { COMMON_RULES } from './translate-entry.js';

export const claudeDesktop: ClientReader = {
  label: 'Claude Desktop',
  files: (places) => [
    {
      client: 'claude-desktop',
      path: join(appConfigDir(places), 'Claude', 'claude_desktop_config.json'),
      scope: 'user',
    },
  ],
  read: readMember('mcpServers', { rules: COMMON_RULES, refs: 'none' }),
};
