// VS Code: the user's `mcp.json` in its User settings directory and a workspace's `.vscode/mcp.json`
// (JSONC): `servers` with `type`, command/args/env/envFile/cwd or url/headers, and `inputs` that a
// value asks for with `${input:id}` (a password among them is never in the file: it becomes a
// variable of ours, named in the note). `${env:NAME}`, `${workspaceFolder}`, `${userHome}` as Cursor.
import { join } from 'node:path';
import { member, readServers, userAndProject } from './client-file.js';
import { parseClientJson } from './client-json.js';
import { EDITOR_RULES } from './cursor.js';
import { appConfigDir, type ClientReader } from './found-server.js';
import { type FieldRules, notMapped } from './translate-entry.js';
import type { EditorInput } from './variable-refs.js';

const RULES: FieldRules = {
  ...EDITOR_RULES,
  dev: notMapped(
    "dev (VS Code's restart-on-change for server development) is not imported: epoch has no such setting.",
  ),
  sandboxEnabled: notMapped('sandboxEnabled is not imported: epoch runs no server in a sandbox.'),
  sandbox: notMapped('sandbox is not imported: epoch runs no server in a sandbox.'),
  gallery: notMapped('gallery is not imported: it only says where VS Code found the server.'),
  version: notMapped('version is not imported: it only says which version VS Code installed.'),
};

export const vscode: ClientReader = {
  label: 'VS Code',
  files: (places) =>
    userAndProject('vscode', places, join(appConfigDir(places), 'Code', 'User', 'mcp.json'), [
      '.vscode',
      'mcp.json',
    ]),
  read: (text, file, places) => {
    const parsed = parseClientJson(text, file);
    if (!parsed.ok) return parsed;
    const inputs = inputsOf(member(parsed.value, 'inputs'));
    const servers = member(parsed.value, 'servers');
    return readServers(file, servers, 'servers', { rules: RULES, refs: 'editor', inputs }, places);
  },
};

function inputsOf(value: unknown): Map<string, EditorInput> {
  const inputs = new Map<string, EditorInput>();
  if (!Array.isArray(value)) return inputs;
  for (const input of value) {
    const id = member(input, 'id');
    if (typeof id === 'string')
      inputs.set(id, { id, password: member(input, 'password') === true });
  }
  return inputs;
}
