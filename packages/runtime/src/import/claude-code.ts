// Claude Code: `~/.claude.json` holds the user scope (`mcpServers`) and each project's local scope
// (`projects["<path>"].mcpServers`); a project's `.mcp.json` holds its shared servers. Entries have
// `type` (stdio, sse, http), command/args/env, url/headers, `headersHelper` (a shell command line),
// and `${VAR}` / `${VAR:-default}` as ours.
import { join } from 'node:path';
import { member, readServers } from './client-file.js';
import { parseClientJson } from './client-json.js';
import type { ClientFile, ClientReader } from './found-server.js';
import { headersHelper } from './headers-helper.js';
import { COMMON_RULES, type FieldRules, notMapped } from './translate-entry.js';

const RULES: FieldRules = {
  ...COMMON_RULES,
  headersHelper: headersHelper,
  oauth: notMapped(
    'oauth (its OAuth client settings) is not imported: set "oauth" by hand if the server needs a pre-registered client.',
  ),
};

export const claudeCode: ClientReader = {
  label: 'Claude Code',
  files: (places) => {
    const user = join(places.home, '.claude.json');
    const files: ClientFile[] = [{ client: 'claude-code', path: user, scope: 'user' }];
    if (places.project !== undefined) {
      files.push({ client: 'claude-code', path: user, scope: 'project', part: 'projects' });
      files.push({
        client: 'claude-code',
        path: join(places.project, '.mcp.json'),
        scope: 'project',
      });
    }
    return files;
  },
  read: (text, file, places) => {
    const parsed = parseClientJson(text, file);
    if (!parsed.ok) return parsed;
    const format = { rules: RULES, refs: 'claude-code' } as const;
    // In ~/.claude.json the project scope is the project's entry; .mcp.json is all project.
    const local = file.scope === 'project' && file.path === join(places.home, '.claude.json');
    if (!local)
      return readServers(file, member(parsed.value, 'mcpServers'), 'mcpServers', format, places);
    const project = member(member(parsed.value, 'projects'), places.project ?? '');
    return readServers(
      file,
      member(project, 'mcpServers'),
      'projects.<project>.mcpServers',
      format,
      places,
    );
  },
};
