// Shared by the runtime tests: a temp EPOCH_HOME per test, mcp.json files written into it, and the
// testkit's fixture server with its `pid` tools, whose `whoami` says which process answers.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { type McpServerEntry, prefixedName } from '@epoch-agent/plugin-mcp';
import { type BuildRuntimeOptions, buildRuntime, type Runtime } from '@epoch-agent/runtime';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import { afterEach, beforeEach } from 'vitest';

/** A stdio entry running the fixture server's `pid` tools (its default catalog) with `args`. */
export function pidServer(...args: string[]): McpServerEntry {
  return { command: process.execPath, args: [FIXTURE_SERVER, ...args] };
}

export interface TempHome {
  readonly dir: string;
  /** Writes the user's mcp.json (`mcpConfigPath()`) with these servers, or this exact text. */
  writeUserConfig(servers: Record<string, unknown> | string): Promise<void>;
  /** Writes `$EPOCH_HOME/plugins/<plugin>/mcp.json`. */
  writePluginConfig(plugin: string, servers: Record<string, unknown>): Promise<string>;
  restore(): Promise<void>;
}

/** Points EPOCH_HOME at a new temp dir until `restore()`. */
export async function useTempHome(): Promise<TempHome> {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-runtime-'));
  const previous = process.env.EPOCH_HOME;
  process.env.EPOCH_HOME = dir;
  return {
    dir,
    async writeUserConfig(servers) {
      const text = typeof servers === 'string' ? servers : JSON.stringify({ servers }, null, 2);
      await writeFile(mcpConfigPath(), text);
    },
    async writePluginConfig(plugin, servers) {
      const pluginDir = join(dir, 'plugins', plugin);
      await mkdir(pluginDir, { recursive: true });
      const file = join(pluginDir, 'mcp.json');
      await writeFile(file, JSON.stringify({ servers }, null, 2));
      return file;
    },
    async restore() {
      if (previous === undefined) delete process.env.EPOCH_HOME;
      else process.env.EPOCH_HOME = previous;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The pid of the process behind `server`, asked through the runtime's ToolRegistry. */
export async function pidOf(runtime: Runtime, server: string): Promise<number> {
  const tool = runtime.tools.get(prefixedName(server, 'whoami'));
  if (tool === undefined) throw new Error(`no whoami tool for server "${server}"`);
  const result = await tool.execute({}, { signal: new AbortController().signal });
  const [first] = result.content;
  if (first?.type !== 'text')
    throw new Error(`whoami of "${server}" answered ${JSON.stringify(result)}`);
  return (JSON.parse(first.text) as { pid: number }).pid;
}

/** The pids of the running processes whose command line holds `tag`. */
export function processesTagged(tag: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(tag);
      } catch {
        return false;
      }
    })
    .map(Number);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A host's `approve` callback that says yes to every server: for tests about something other than
 * who approves what (approvals.test.ts is about that), whose plugin servers and hand-written
 * entries must start.
 */
export const approveEverything = (): boolean => true;

/** What useRuntimeHome gives a test: its home, and buildRuntime with the runtime kept for cleanup. */
export interface RuntimeTest {
  readonly home: TempHome;
  /** buildRuntime; the runtime is closed (every server reaped) after the test. */
  build(options?: BuildRuntimeOptions): Promise<Runtime>;
}

/** A temp EPOCH_HOME for each test of the file, and the runtimes it builds closed after it. */
export function useRuntimeHome(): RuntimeTest {
  let home: TempHome | undefined;
  const built: Runtime[] = [];
  beforeEach(async () => {
    home = await useTempHome();
  });
  afterEach(async () => {
    await Promise.all(built.splice(0).map((runtime) => runtime.close()));
    await home?.restore();
  });
  return {
    get home() {
      if (home === undefined) throw new Error('useRuntimeHome: used outside a test');
      return home;
    },
    async build(options) {
      const runtime = await buildRuntime(options);
      built.push(runtime);
      return runtime;
    },
  };
}

/** What `promise` rejects with; a test failure when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
