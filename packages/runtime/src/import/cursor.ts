// Cursor: `~/.cursor/mcp.json` and a project's `.cursor/mcp.json`, `mcpServers` with
// command/args/env/envFile or url/headers, and `${env:NAME}`, `${userHome}`, `${workspaceFolder}`.
import { join } from 'node:path';
import { readMember, userAndProject } from './client-file.js';
import type { ClientReader } from './found-server.js';
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
  files: (places) =>
    userAndProject('cursor', places, join(places.home, '.cursor', 'mcp.json'), [
      '.cursor',
      'mcp.json',
    ]),
  read: readMember('mcpServers', { rules: RULES, refs: 'editor' }),
};
