// Test helpers around fixtures/changing-tools-server.mjs (a server whose tool list lives in a
// file) and a temp EPOCH_HOME whose schema cache the tests can read.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stdioConfig, waitUntil } from '@epoch-agent/testkit';
import type { Tool } from '@modelcontextprotocol/client';
import type { StdioServerConfig } from '../../src/types.js';
import { requests } from './recording.js';

const FIXTURE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'changing-tools-server.mjs',
);

export function tool(name: string, description = `The ${name} tool.`): Tool {
  return { name, description, inputSchema: { type: 'object', properties: {} } };
}

/** The tool that changes the server's list and announces it (see the fixture). */
export const CHANGE_TOOLS = tool('change_tools', 'Replaces the tool list and sends list_changed.');

export interface ChangingToolsServer {
  readonly config: StdioServerConfig;
  readonly recordFile: string;
  /** Changes what tools/list answers from now on, without telling anyone. */
  setTools(tools: readonly Tool[]): void;
  /** The tools/list requests the server received. */
  toolsListCount(): number;
}

export interface ChangingToolsOptions {
  readonly tools: readonly Tool[];
  readonly initializeDelayMs?: number;
  readonly overrides?: Partial<StdioServerConfig>;
}

export function changingToolsServer(
  dir: string,
  name: string,
  options: ChangingToolsOptions,
): ChangingToolsServer {
  const toolsFile = join(dir, `${name}.tools.json`);
  const recordFile = join(dir, `${name}.jsonl`);
  const setTools = (tools: readonly Tool[]): void =>
    writeFileSync(toolsFile, JSON.stringify(tools));
  setTools(options.tools);
  const config: StdioServerConfig = stdioConfig(
    name,
    process.execPath,
    [FIXTURE, toolsFile, recordFile, String(options.initializeDelayMs ?? 0)],
    { timeoutMs: 30_000, connectTimeoutMs: 20_000, ...options.overrides },
  );
  return {
    config,
    recordFile,
    setTools,
    toolsListCount: () => requests(recordFile, 'tools/list').length,
  };
}

export interface TempHome {
  readonly path: string;
  /** Where the registry's default cache lives under this home. */
  readonly cacheDir: string;
  /** Every file of the cache directory, by name (empty when it does not exist). */
  cacheFiles(): Record<string, string>;
  remove(): void;
}

export function tempHome(): TempHome {
  const path = mkdtempSync(join(tmpdir(), 'epoch-mcp-home-'));
  const cacheDir = join(path, 'cache', 'mcp-schemas');
  return {
    path,
    cacheDir,
    cacheFiles() {
      let names: string[];
      try {
        names = readdirSync(cacheDir);
      } catch {
        return {};
      }
      return Object.fromEntries(
        names.map((file) => [file, readFileSync(join(cacheDir, file), 'utf8')]),
      );
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/**
 * Polls until `predicate` holds of what `probe` gives, and resolves with that: cache files are
 * written and servers record requests in the background, with no event to wait on.
 */
export async function eventually<T>(
  what: string,
  probe: () => T,
  predicate: (value: T) => boolean,
): Promise<T> {
  const found = await waitUntil(
    () => {
      const value = probe();
      return predicate(value) ? { value } : undefined;
    },
    () => `${what}; last: ${JSON.stringify(probe())}`,
  );
  return found.value;
}
