// max_output_tokens on real servers: what the model gets from a tool whose result is too long (the
// result cut at the cap, a note of what was left out and where the whole is), what is saved (the
// whole result, secrets blanked, owner-only), what a hostile or broken results directory does to
// a call (nothing but the note), and how the directory is kept small.
import { execFileSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { estimateTokens, REDACTED, secretRedactor } from '@epoch-agent/infra';
import type { ToolContent, ToolResult } from '@epoch-agent/protocol';
import { stdioConfig } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpRegistry } from '../src/registry/registry.js';
import type { McpRegistryOptions } from '../src/registry/types.js';
import type { McpEpochTool } from '../src/tools/epoch-tools.js';
import { BINARY_TOKENS, capToolResult } from '../src/tools/output-cap.js';
import { TOOL_RESULTS_MAX_AGE_MS, TOOL_RESULTS_MAX_BYTES } from '../src/tools/result-files.js';
import type { StdioServerConfig } from '../src/types.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'big-result-server.mjs');
const SECRET = 'sk-tool-result-secret-4711';
const CTX = { signal: new AbortController().signal };

function config(name: string, extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return stdioConfig(name, process.execPath, [SERVER], {
    env: { API_TOKEN: SECRET },
    timeoutMs: 30_000,
    connectTimeoutMs: 20_000,
    ...extra,
  });
}

let home: string;
let inherited: string | undefined;
const registries: McpRegistry[] = [];

beforeEach(async () => {
  inherited = process.env.EPOCH_HOME;
  home = await mkdtemp(join(tmpdir(), 'epoch-output-cap-'));
  // The registry finds the results directory under EPOCH_HOME when it is made.
  process.env.EPOCH_HOME = home;
});

afterEach(async () => {
  await Promise.all(registries.splice(0).map((registry) => registry.disconnectAll()));
  process.env.EPOCH_HOME = inherited;
  await rm(home, { recursive: true, force: true });
});

const resultsDir = () => join(home, 'tool-results');

async function connect(
  configs: readonly StdioServerConfig[],
  options: McpRegistryOptions = {},
): Promise<McpRegistry> {
  const registry = new McpRegistry({ schemaCache: null, ...options });
  registries.push(registry);
  const statuses = await registry.connectAll(configs, 'user');
  for (const status of statuses) expect(status.state).toBe('connected');
  return registry;
}

function tool(registry: McpRegistry, server: string, name: string): McpEpochTool {
  const found = registry
    .toolsOf(server)
    .find(({ target }) => target.kind === 'tool' && target.name === name);
  if (found === undefined) throw new Error(`no tool ${name} on ${server}`);
  return found;
}

function texts(result: ToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
}

function note(result: ToolResult): string {
  return texts(result).at(-1) ?? '';
}

/** The file the note names. */
function savedPath(result: ToolResult): string {
  const path = /saved in (\S+?): /.exec(note(result))?.[1];
  if (path === undefined) throw new Error(`no file in the note: ${note(result)}`);
  return path;
}

function tokensOf(content: readonly ToolContent[]): number {
  return content.reduce(
    (sum, block) => sum + (block.type === 'text' ? estimateTokens(block.text) : BINARY_TOKENS),
    0,
  );
}

describe('a result over the cap', () => {
  it('2 MB of text reaches the model cut at 25,000 tokens; the whole, its secret blanked, is in a 0600 file of a 0700 EPOCH_HOME/tool-results', async () => {
    const registry = await connect([config('big')]);
    const text = tool(registry, 'big', 'text');
    const whole = await text.executeUncut({ chars: 2_000_000 }, CTX);
    const cut = await text.execute({ chars: 2_000_000 }, CTX);

    const [kept, about] = texts(cut);
    expect(cut.content).toHaveLength(2);
    expect(kept).toBe(texts(whole)[0]?.slice(0, 100_000));
    expect(about).toContain('about 500,000 tokens, more than the 25,000');
    expect(about).toContain('About 475,000 tokens are left out: 1 of its 1 content block is cut');
    const file = savedPath(cut);
    expect(dirname(file)).toBe(resultsDir());
    expect(file).toMatch(/-big-text-[0-9a-f]{8}\.txt$/);

    expect((await lstat(file)).mode & 0o777).toBe(0o600);
    expect((await lstat(resultsDir())).mode & 0o777).toBe(0o700);
    const saved = await readFile(file, 'utf8');
    expect(texts(whole)[0]).toContain(SECRET);
    expect(saved).not.toContain(SECRET);
    expect(saved).toBe(texts(whole)[0]?.replace(SECRET, REDACTED));
  });

  it('a result under the cap is untouched, and nothing is saved', async () => {
    const registry = await connect([config('big')]);
    const text = tool(registry, 'big', 'text');
    const result = await text.execute({ chars: 99_000 }, CTX);
    expect(result).toEqual(await text.executeUncut({ chars: 99_000 }, CTX));
    expect(texts(result)).toHaveLength(1);
    await expect(readdir(resultsDir())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('images are counted as BINARY_TOKENS each and cut whole, never turned into text', async () => {
    const registry = await connect([config('big')]);
    const images = tool(registry, 'big', 'images');
    // 15 images and a line of text fit in 25,000 tokens; as base64 text they would be ~30 each.
    const fits = await images.execute({ count: 15 }, CTX);
    expect(fits).toEqual(await images.executeUncut({ count: 15 }, CTX));

    const cut = await images.execute({ count: 40 }, CTX);
    const kept = cut.content.slice(0, -1);
    expect(kept[0]).toEqual({ type: 'text', text: '40 images follow' });
    expect(kept.slice(1).every((block) => block.type === 'image')).toBe(true);
    expect(kept).toHaveLength(1 + 15);
    expect(tokensOf(kept)).toBeLessThanOrEqual(25_000);
    expect(JSON.stringify(texts(cut))).not.toContain('iVBOR');
    expect(note(cut)).toContain('25 of its 41 content blocks are cut or left out');
    // Not text only: kept as JSON, images and all.
    const saved = JSON.parse(await readFile(savedPath(cut), 'utf8')) as ToolResult;
    expect(saved.content).toHaveLength(41);
  });

  it('the model gets one copy (the text that is the JSON of the structured content) and the cap counts only it; the structured content is kept for the host while it fits alone', async () => {
    const registry = await connect([config('big')]);
    const structured = tool(registry, 'big', 'structured');
    // About 17,000 tokens of structured content and as much text: one copy fits 25,000.
    const whole = await structured.executeUncut({ chars: 60_000 }, CTX);
    const fits = await structured.execute({ chars: 60_000 }, CTX);
    expect(fits.content).toEqual(whole.content);
    expect(fits.structuredContent).toEqual(whole.structuredContent);

    const over = await structured.execute({ chars: 200_000 }, CTX);
    expect(over.structuredContent).toBeUndefined();
    expect(tokensOf(over.content.slice(0, -1))).toBe(25_000);
    expect(note(over)).not.toContain('structured content');
    // The model's copy, whole: its text alone.
    expect(await readFile(savedPath(over), 'utf8')).toBe(
      texts(await structured.executeUncut({ chars: 200_000 }, CTX))[0],
    );
  });

  it('the server entry’s max_output_tokens wins over the runtime’s; a new one takes effect at the next call', async () => {
    const registry = await connect(
      [config('capped'), config('roomy', { maxOutputTokens: 5_000 })],
      {
        maxOutputTokens: 500,
      },
    );
    const capped = await tool(registry, 'capped', 'text').execute({ chars: 10_000 }, CTX);
    expect(texts(capped)[0]).toHaveLength(2_000);
    expect(note(capped)).toContain('more than the 500 one result');
    const roomy = tool(registry, 'roomy', 'text');
    expect(texts(await roomy.execute({ chars: 10_000 }, CTX))).toHaveLength(1);

    const roomyConfig = registry.configOf('roomy');
    if (roomyConfig === undefined) throw new Error('roomy is not registered');
    const { maxOutputTokens: _cap, ...uncapped } = roomyConfig;
    await registry.update({ ...uncapped, maxOutputTokens: 1_000 });
    expect(texts(await roomy.execute({ chars: 10_000 }, CTX))[0]).toHaveLength(4_000);
    await registry.update(uncapped);
    expect(texts(await roomy.execute({ chars: 10_000 }, CTX))[0]).toHaveLength(2_000);
  });

  it('a cut that would fall inside a secret: the model gets no start of it, and its text is the start of the saved file', async () => {
    // The secret sits at characters 9,873 to 9,899 of the 10,000; 2,470 tokens cut at 9,880.
    const registry = await connect([config('big', { maxOutputTokens: 2_470 })]);
    const cut = await tool(registry, 'big', 'text').execute({ chars: 10_000 }, CTX);
    const [kept = ''] = texts(cut);
    expect(kept.length).toBeGreaterThan(9_000);
    for (let length = 3; length <= SECRET.length; length++) {
      expect(kept).not.toContain(SECRET.slice(0, length));
    }
    // Not half a marker either: the model reads on at the marker's start.
    expect(kept.endsWith('<')).toBe(false);
    const saved = await readFile(savedPath(cut), 'utf8');
    expect(saved.startsWith(kept)).toBe(true);
    expect(saved.slice(kept.length)).toMatch(/^<redacted> /);
  });

  it('many text blocks: those that fit whole, then the start of the next, and the count of the rest', async () => {
    const registry = await connect([config('big')], { maxOutputTokens: 1_000 });
    const cut = await tool(registry, 'big', 'blocks').execute({ count: 5, chars: 1_500 }, CTX);
    // 1,500 characters and a label is ~377 tokens: two whole blocks, most of the third.
    expect(cut.content).toHaveLength(4);
    expect(tokensOf(cut.content.slice(0, -1))).toBe(1_000);
    expect(note(cut)).toContain('3 of its 5 content blocks are cut or left out');
  });
});

describe('a results directory that cannot be written', () => {
  const cutWithout = async (why: RegExp) => {
    const registry = await connect([config('big')]);
    const cut = await tool(registry, 'big', 'text').execute({ chars: 200_000 }, CTX);
    expect(texts(cut)[0]).toHaveLength(100_000);
    expect(note(cut)).toMatch(why);
    expect(note(cut)).toContain('could not be saved to a file');
    expect(note(cut)).not.toContain(home);
  };

  it('a FIFO in its place: the result is still cut, the note says the file could not be written', async () => {
    execFileSync('mkfifo', [resultsDir()]);
    await cutWithout(/\((ENOTDIR|EEXIST)\)/);
    expect((await lstat(resultsDir())).isFIFO()).toBe(true);
  });

  it('a regular file in its place', async () => {
    await writeFile(resultsDir(), 'not a directory');
    await cutWithout(/\((ENOTDIR|EEXIST)\)/);
  });

  it('a full disk: the file is not written, no half-written file is left, the result is still cut', async (ctx) => {
    await mkdir(resultsDir(), { mode: 0o700 });
    // A 64 kB filesystem where the results go; only where this process may mount one.
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', resultsDir()], {
        stdio: 'ignore',
      });
    } catch {
      ctx.skip();
    }
    try {
      await cutWithout(/\(ENOSPC\)/);
      expect(await readdir(resultsDir())).toEqual([]);
    } finally {
      execFileSync('umount', [resultsDir()]);
    }
  });

  it.skipIf(process.getuid?.() === 0)('a read-only directory', async () => {
    await mkdir(resultsDir(), { mode: 0o500 });
    await cutWithout(/\(EACCES\)/);
  });
});

describe('pruning when a result is saved', () => {
  const HOUR = 60 * 60 * 1000;
  const aged = async (name: string, bytes: number, ageMs: number) => {
    const path = join(resultsDir(), name);
    await writeFile(path, '', { mode: 0o600 });
    // Sparse: its size counts without the disk holding it.
    await truncate(path, bytes);
    const at = (Date.now() - ageMs) / 1000;
    await utimes(path, at, at);
    return path;
  };

  it('files older than 7 days go, then the oldest until the rest take at most 100 MB; what is not a regular file stays', async () => {
    await mkdir(resultsDir(), { recursive: true, mode: 0o700 });
    await aged('old.txt', 10, TOOL_RESULTS_MAX_AGE_MS + HOUR);
    await aged('week.txt', 10, TOOL_RESULTS_MAX_AGE_MS - HOUR);
    // Each 60% of the budget: the newer one stays beside the new result, the older one goes.
    await aged('newer.txt', TOOL_RESULTS_MAX_BYTES * 0.6, 1 * HOUR);
    await aged('older.txt', TOOL_RESULTS_MAX_BYTES * 0.6, 2 * HOUR);
    execFileSync('mkfifo', [join(resultsDir(), 'a-fifo')]);

    const registry = await connect([config('big')]);
    const cut = await tool(registry, 'big', 'text').execute({ chars: 200_000 }, CTX);
    const saved = savedPath(cut);
    expect((await readdir(resultsDir())).sort()).toEqual(
      ['a-fifo', 'newer.txt', saved.slice(resultsDir().length + 1), 'week.txt'].sort(),
    );
  });
});

describe('capToolResult on its own', () => {
  const cap = (maxTokens: number) => ({
    maxTokens: () => maxTokens,
    dir: resultsDir(),
    redact: secretRedactor(),
  });
  const about = { server: 's', tool: 't' };

  it('structured content is not counted: content that fits is returned as it is, the structured content with it', async () => {
    const result: ToolResult = {
      content: [{ type: 'text', text: 'see the rows' }],
      structuredContent: { rows: 'r'.repeat(8_000) },
    };
    expect(await capToolResult(result, cap(1_000), about)).toBe(result);
  });

  it('a text resource is cut inside, keeping its uri; half a surrogate pair is never left at the end', async () => {
    const resource: ToolResult = {
      content: [{ type: 'resource', resource: { uri: 'doc://a', text: 'x'.repeat(10_000) } }],
    };
    const [kept] = (await capToolResult(resource, cap(100), about)).content;
    expect(kept).toEqual({ type: 'resource', resource: { uri: 'doc://a', text: 'x'.repeat(392) } });

    const emoji: ToolResult = { content: [{ type: 'text', text: `abc${'😀'.repeat(100)}` }] };
    const [text] = texts(await capToolResult(emoji, cap(10), about));
    expect(text).toBe(`abc${'😀'.repeat(18)}`);
  });
});
