// McpSchemaCache on real files in a temp EPOCH_HOME: memory first then disk, keyed by the config
// fingerprint, invalidation, files that are corrupt / of another shape / unreadable, file modes,
// and no secret of the config anywhere on disk.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSchemaCacheDir, McpSchemaCache, type McpServerSchema } from '../src/cache.js';
import { fingerprint } from '../src/config/fingerprint.js';
import { EVERY_TOOL } from '../src/config/tool-choice.js';
import type { HttpServerConfig, StdioServerConfig } from '../src/types.js';
import { type TempHome, tempHome, tool } from './support/changing-tools.js';
import { memoryLogger } from './support/recording.js';

const SECRET = 'sk-live-cache-must-not-store-0123';

const STDIO: StdioServerConfig = {
  name: 'files',
  transport: 'stdio',
  command: 'mcp-files',
  args: ['--root', '/tmp'],
  env: { API_TOKEN: SECRET },
  timeoutMs: 300_000,
  maxTotalTimeoutMs: 3_600_000,
  connectTimeoutMs: 60_000,
  keepaliveIntervalMs: 180_000,
  idleTimeoutMs: 0,
  maxLifetimeMs: 0,
  supportsParallel: false,
  skipPreflight: false,
  choice: EVERY_TOOL,
  defer: 'auto',
};

const SCHEMA: McpServerSchema = {
  tools: [tool('read'), { ...tool('write'), annotations: { destructiveHint: true } }],
  resources: true,
  prompts: false,
};

let home: TempHome;

beforeEach(() => {
  home = tempHome();
});

afterEach(() => {
  home.remove();
});

function cache(logger = memoryLogger()): McpSchemaCache {
  return new McpSchemaCache({ dir: home.cacheDir, logger });
}

function fileOf(config: StdioServerConfig | HttpServerConfig): string {
  return join(home.cacheDir, `${fingerprint(config)}.json`);
}

describe('hits and misses', () => {
  it('misses on an empty home, then hits from memory and, in a new process, from disk', async () => {
    const first = cache();
    expect(await first.get(STDIO)).toBeUndefined();
    await first.set(STDIO, SCHEMA);
    expect(await first.get(STDIO)).toBe(SCHEMA);
    // A new cache on the same directory has an empty memory: the answer comes from the file.
    expect(await cache().get(STDIO)).toEqual(SCHEMA);
  });

  it('answers from memory first: a file changed behind its back is not read again', async () => {
    const c = cache();
    await c.set(STDIO, SCHEMA);
    writeFileSync(fileOf(STDIO), 'garbage');
    expect(await c.get(STDIO)).toBe(SCHEMA);
  });

  it('a changed fingerprint never reads the old entry; a renamed server with the same connection does', async () => {
    const c = cache();
    await c.set(STDIO, SCHEMA);
    const fresh = cache();
    expect(await fresh.get({ ...STDIO, env: { API_TOKEN: 'another-token' } })).toBeUndefined();
    expect(await fresh.get({ ...STDIO, args: ['--root', '/srv'] })).toBeUndefined();
    expect(await fresh.get({ ...STDIO, connectTimeoutMs: 5_000 })).toBeUndefined();
    expect(await fresh.get({ ...STDIO, name: 'renamed' })).toEqual(SCHEMA);
  });

  it('defaults to $EPOCH_HOME/cache/mcp-schemas', () => {
    const previous = process.env.EPOCH_HOME;
    process.env.EPOCH_HOME = home.path;
    try {
      expect(defaultSchemaCacheDir()).toBe(home.cacheDir);
      expect(new McpSchemaCache().dir).toBe(home.cacheDir);
    } finally {
      if (previous === undefined) delete process.env.EPOCH_HOME;
      else process.env.EPOCH_HOME = previous;
    }
  });
});

describe('invalidate', () => {
  it('drops the entry from memory and disk; other entries stay', async () => {
    const c = cache();
    const other = { ...STDIO, args: ['--root', '/other'] };
    await c.set(STDIO, SCHEMA);
    await c.set(other, SCHEMA);
    await c.invalidate(STDIO);
    expect(await c.get(STDIO)).toBeUndefined();
    expect(await cache().get(STDIO)).toBeUndefined();
    expect(readdirSync(home.cacheDir)).toEqual([`${fingerprint(other)}.json`]);
  });

  it('an invalidate issued right after a write is not undone by that write', async () => {
    const c = cache();
    const write = c.set(STDIO, SCHEMA);
    const drop = c.invalidate(STDIO);
    await Promise.all([write, drop]);
    expect(readdirSync(home.cacheDir)).toEqual([]);
    expect(await cache().get(STDIO)).toBeUndefined();
  });
});

describe('a read that overlaps a change', () => {
  it('returns the change, not the file it read: invalidate wins, and so does a newer set', async () => {
    await cache().set(STDIO, SCHEMA);
    const c = cache();
    const reading = c.get(STDIO);
    await c.invalidate(STDIO);
    expect(await reading).toBeUndefined();
    expect(await c.get(STDIO)).toBeUndefined();

    await cache().set(STDIO, SCHEMA);
    const newer: McpServerSchema = { tools: [tool('newer')], resources: false, prompts: true };
    const d = cache();
    const racing = d.get(STDIO);
    const write = d.set(STDIO, newer);
    expect(await racing).toBe(newer);
    await write;
    expect(await cache().get(STDIO)).toEqual(newer);
  });
});

describe('a bad cache file is a miss with a warning, never a crash', () => {
  async function missWith(content: string | 'directory'): Promise<string> {
    mkdirSync(home.cacheDir, { recursive: true });
    if (content === 'directory') mkdirSync(fileOf(STDIO));
    else writeFileSync(fileOf(STDIO), content);
    const logger = memoryLogger();
    expect(await cache(logger).get(STDIO)).toBeUndefined();
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('MCP server "files"');
    return warnings[0]?.message ?? '';
  }

  it('garbage', async () => {
    expect(await missWith('\u0000not json{')).toContain('not valid JSON');
  });

  it('valid JSON of the wrong shape', async () => {
    const key = fingerprint(STDIO);
    expect(await missWith('[1, 2, 3]')).toContain('shape');
    expect(
      await missWith(JSON.stringify({ version: 1, fingerprint: key, tools: 'read' })),
    ).toContain('shape');
    // A tool without an inputSchema is not an MCP tool.
    const badTool = {
      version: 1,
      fingerprint: key,
      tools: [{ name: 'x' }],
      resources: false,
      prompts: false,
    };
    expect(await missWith(JSON.stringify(badTool))).toContain('shape');
    // A file from a future format.
    expect(await missWith(JSON.stringify({ ...badTool, version: 2, tools: [] }))).toContain(
      'shape',
    );
  });

  it('an entry copied from another configuration', async () => {
    const foreign = {
      version: 1,
      fingerprint: 'f'.repeat(64),
      tools: [],
      resources: false,
      prompts: false,
    };
    expect(await missWith(JSON.stringify(foreign))).toContain('another configuration');
  });

  it('a file that cannot be read', async () => {
    expect(await missWith('directory')).toContain('could not be read');
  });

  it('is replaced by the next write', async () => {
    await missWith('garbage');
    await cache().set(STDIO, SCHEMA);
    expect(await cache().get(STDIO)).toEqual(SCHEMA);
  });

  it('a write that fails is a warning too', async () => {
    // The cache directory's place is taken by a file: nothing can be written under it.
    mkdirSync(join(home.path, 'cache'), { recursive: true });
    writeFileSync(home.cacheDir, 'not a directory');
    const logger = memoryLogger();
    await cache(logger).set(STDIO, SCHEMA);
    expect(logger.lines.map((line) => line.level)).toEqual(['warn']);
    expect(logger.lines[0]?.message).toContain('could not write its schema cache file');
  });
});

describe('on disk', () => {
  it('the file is 0600 and its directory 0700, even a directory that existed wider', async () => {
    mkdirSync(home.cacheDir, { recursive: true, mode: 0o755 });
    await cache().set(STDIO, SCHEMA);
    expect(statSync(fileOf(STDIO)).mode & 0o777).toBe(0o600);
    expect(statSync(home.cacheDir).mode & 0o777).toBe(0o700);
  });

  it('holds no secret of the config: env values, header values, URL credentials and query', async () => {
    const remote: HttpServerConfig = {
      ...STDIO,
      name: 'remote',
      transport: 'http',
      url: `https://user:${SECRET}@mcp.example.com/mcp?token=${SECRET}`,
      headers: { Authorization: `Bearer ${SECRET}`, 'X-Api-Key': SECRET },
    };
    const c = cache();
    await c.set(STDIO, SCHEMA);
    await c.set(remote, SCHEMA);
    const files = home.cacheFiles();
    expect(Object.keys(files)).toHaveLength(2);
    const everything = JSON.stringify(files);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('mcp.example.com');
    expect(everything).not.toContain('API_TOKEN');
    expect(everything).not.toContain('mcp-files');
  });
});
