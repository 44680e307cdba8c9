// MCP roots: the directories a host gives are the ones a server works in. The reference
// filesystem server, started with no directory of its own, takes the client's roots, refuses a
// file outside them and follows a change; the recording fixture shows what is declared, and that
// nothing is without roots.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILESYSTEM_ENTRY, stdioConfig } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import type { McpRoot } from '../src/connection/roots.js';
import { McpRegistry } from '../src/registry/registry.js';
import { recordingConfig, records, requests, useRecordingClients } from './support/recording.js';

const servers = useRecordingClients();

let dirs: string[] = [];
beforeEach(() => {
  dirs = [];
});
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A directory holding one file, `<label>.txt`, whose text is the label. */
function dirWith(label: string): { readonly dir: string; readonly file: string } {
  // The server compares real paths: /tmp may be a link (macOS).
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `epoch-roots-${label}-`)));
  dirs.push(dir);
  const file = join(dir, `${label}.txt`);
  writeFileSync(file, label);
  return { dir, file };
}

function textOf(result: { readonly content: readonly unknown[] }): string {
  return result.content.map((part) => (part as { text?: string }).text ?? '').join('\n');
}

describe('roots with the reference filesystem server, started with no directory', () => {
  it('reads inside the roots, refuses outside them, and follows notifyRootsChanged', async () => {
    const inside = dirWith('inside');
    const outside = dirWith('outside');
    let roots: readonly McpRoot[] = [{ dir: inside.dir, name: 'work' }];
    const registry = new McpRegistry({ schemaCache: null, roots: () => roots });
    try {
      const [status] = await registry.connectAll(
        [stdioConfig('files', process.execPath, [FILESYSTEM_ENTRY])],
        'user',
      );
      expect(status?.state).toBe('connected');
      const tool = (name: string) => {
        const found = registry.toolsOf('files').find((t) => t.name === `mcp__files__${name}`);
        if (found === undefined) throw new Error(`no tool ${name}`);
        return (args: Record<string, unknown>) =>
          found.execute(args, { signal: new AbortController().signal });
      };
      // The server asks for the roots once initialized, on its own time: wait until it has them.
      await expect
        .poll(async () => textOf(await tool('list_allowed_directories')({})), { timeout: 60_000 })
        .toContain(inside.dir);
      expect(textOf(await tool('read_file')({ path: inside.file }))).toBe('inside');
      expect(textOf(await tool('list_directory')({ path: inside.dir }))).toContain('inside.txt');
      const refused = await tool('read_file')({ path: outside.file });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/outside allowed directories/);

      roots = [pathToFileURL(outside.dir).href];
      await registry.notifyRootsChanged();
      await expect
        .poll(async () => (await tool('read_file')({ path: outside.file })).isError ?? false, {
          timeout: 60_000,
        })
        .toBe(false);
      expect(textOf(await tool('read_file')({ path: outside.file }))).toBe('outside');
      const nowRefused = await tool('read_file')({ path: inside.file });
      expect(nowRefused.isError).toBe(true);
    } finally {
      await registry.disconnectAll();
    }
  }, 120_000);
});

const TASKS_ONLY = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('what a client declares', () => {
  it('without roots, initialize declares no roots capability and no roots/list is answered', async () => {
    const { client, file } = servers.start({});
    await client.connect();
    const [initialize] = requests(file, 'initialize');
    // Tasks are always followed: the extension is declared whatever else is.
    expect(initialize?.in?.params?.capabilities).toEqual(TASKS_ONLY);
  });

  it('with roots, initialize declares roots with listChanged, and a change is notified', async () => {
    const file = join(servers.dir(), 'rooted.jsonl');
    const client = new McpClient({
      config: recordingConfig('rooted', file),
      roots: [dirWith('declared').dir],
    });
    try {
      await client.connect();
      const [initialize] = requests(file, 'initialize');
      expect(initialize?.in?.params?.capabilities).toEqual({
        ...TASKS_ONLY,
        roots: { listChanged: true },
      });
      await client.notifyRootsChanged();
      await expect
        .poll(() => records(file).some((r) => r.in?.method === 'notifications/roots/list_changed'))
        .toBe(true);
    } finally {
      await client.close();
    }
  });
});
