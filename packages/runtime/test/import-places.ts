// The import fixtures copied into a temp directory laid out as a machine: `<dir>/home` and
// `<dir>/project`, with `__PROJECT__` in ~/.claude.json replaced by the project's path.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportPlaces } from '../src/import/found-server.js';

// Every secret value written in the fixtures: no output may show one.
export const FIXTURE_SECRETS = [
  'ghp_desktopSecret1234567890',
  'cursorSecretSafe42',
  'geminiSecretValue123456',
  'codexEnvSecret987654',
];

/**
 * A user's mcp.json to import into: comments, CRLF, and a server whose name clashes with Claude
 * Desktop's but for case.
 */
export const USER_MCP_JSON = [
  '// my servers',
  '{',
  '  "servers": {',
  '    // the work account',
  '    "GitHub": { "command": "gh-mcp" }, // trailing comment',
  '    "fetch": {',
  '      "command": "uvx",',
  '      "args": ["mcp-server-fetch"]',
  '    }',
  '  }',
  '}',
  '',
].join('\r\n');

export const IMPORT_FIXTURES = fileURLToPath(new URL('./fixtures/import', import.meta.url));

export async function fixtureMachine(): Promise<ImportPlaces & { dir: string; project: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-import-'));
  await cp(IMPORT_FIXTURES, dir, { recursive: true });
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  const claude = join(home, '.claude.json');
  await writeFile(claude, (await readFile(claude, 'utf8')).replace('__PROJECT__', project));
  return { dir, home, project, platform: 'linux' };
}
