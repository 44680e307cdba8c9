// What `epoch mcp import` (the built bin, a real home) says of two client files: a ~/.claude.json
// that does not parse is named with its line and column and the loader's words for the mistake
// (not the parser's code), and a Codex stdio server with `bearer_token_env_var` is imported, the
// note naming the Codex field (not "headers", which the person never wrote).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epochIn } from './epoch-process.js';

let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-cli-import-words-'));
  env = { HOME: home, EPOCH_HOME: join(home, 'epoch-home') };
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('import: what it says of a file', () => {
  it('a JSON syntax error: line, column and words', async () => {
    await writeFile(join(home, '.claude.json'), '{\n  "mcpServers": { a: 1 }\n}\n');
    const run = await epochIn(home, ['mcp', 'import', '--from', 'claude-code'], env);
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      `${join(home, '.claude.json')}:2:19: JSON syntax error: unexpected character (strings and keys need "double quotes"); nothing of it was imported.`,
    );
    expect(run.out).not.toContain('PropertyNameExpected');
  });

  it("Codex's bearer_token_env_var on a stdio server: imported, the note names that field", async () => {
    await mkdir(join(home, '.codex'));
    await writeFile(
      join(home, '.codex', 'config.toml'),
      '[mcp_servers.x]\ncommand = "node"\nbearer_token_env_var = "BT"\n',
    );
    const run = await epochIn(home, ['mcp', 'import', '--from', 'codex'], env);
    expect(run.code).toBe(0);
    expect(run.out).toContain('  x: added\n');
    expect(run.out).toContain(
      'note: bearer_token_env_var is not imported: it is for a server reached by URL, and this one runs a command (stdio), which is sent no headers.',
    );
    expect(run.out).not.toContain('"headers"');
  });
});
