// Cursor: `~/.cursor/mcp.json` and a project's `.cursor/mcp.json`, `mcpServers` with
// command/args/env/envFile or url/headers, and `${env:NAME}`, `${userHome}`, `${workspaceFolder}`.
import { join } from 'node:path';
import { member, parseJsonFile, readServers } from './client-file.js';
import type { ClientFile, ClientReader } from './found-server.js';
import { COMMON_RULES, type FieldRules, notMapped, set } from './translate-entry.js';

export const EDITOR_RULES: FieldRules = {
  ...COMMON_RULES,
  envFile: (value, draft) => set(draft, 'env_file', draft.string(value, 'envFile')),
};

const RULES: FieldRules = {
  ...EDITOR_RULES,
  auth: notMapped(
    'auth (its OAuth client settings) is not imported: set "oauth" by hand if the server needs a pre-registered client.',
  ),
};

export const cursor: ClientReader = {
  label: 'Cursor',
  files: (places) => {
    const files: ClientFile[] = [
      { client: 'cursor', path: join(places.home, '.cursor', 'mcp.json'), scope: 'user' },
    ];
    if (places.project !== undefined) {
      files.push({
        client: 'cursor',
        path: join(places.project, '.cursor', 'mcp.json'),
        scope: 'project',
      });
    }
    return files;
  },
  read: (text, file, places) => {
    const parsed = parseJsonFile(text, file);
    if (!parsed.ok) return parsed;
    const servers = member(parsed.value, 'mcpServers');
    return readServers(file, servers, 'mcpServers', { rules: RULES, refs: 'editor' }, places);
  },
};
