// What a cold `epoch` process loads: the table of commands holds everything help and parsing need,
// and a command's code (with the runtime, the SDK, the connectors page) loads only when it runs.
// `epoch mcp list`, run on every start of a session, reads files and loads no connection code.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modulesLoadedBy } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EPOCH_BIN } from './epoch-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-loading-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The modules `epoch <argv>` loads, after checking it exited `code`. */
function epochLoads(argv: readonly string[], code: number): readonly string[] {
  const run = modulesLoadedBy([EPOCH_BIN, ...argv], {
    env: { ...process.env, EPOCH_HOME: dir, NO_COLOR: '1' },
  });
  expect(run.status, run.stderr).toBe(code);
  return run.urls;
}

const NOT_FOR_READING = [
  '/node_modules/@modelcontextprotocol/',
  '/node_modules/zod/',
  '/node_modules/hono/',
  '/web/dist/',
  '/runtime/dist/index.js',
  '/runtime/dist/assembly/build-runtime.js',
  '/plugin-mcp/bundle/index.js',
  '/plugin-mcp/bundle/chunks/connection.js',
];

const unexpected = (urls: readonly string[]) =>
  urls.filter((url) => NOT_FOR_READING.some((part) => url.includes(part)));

describe('a cold epoch loads only what its command needs', () => {
  it('epoch --help loads no command at all', () => {
    const loaded = epochLoads(['--help'], 0);
    expect(loaded.some((url) => url.endsWith('/cli/dist/commands/table.js'))).toBe(true);
    expect(
      loaded.filter((url) => url.includes('/runtime/') || url.includes('/plugin-mcp/')),
    ).toEqual([]);
  });

  it('epoch mcp list reads the config with no SDK, schema library, registry or web page', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(
      file,
      JSON.stringify({ servers: { fs: { command: 'npx' }, remote: { url: 'https://h/mcp' } } }),
    );
    const loaded = epochLoads(['mcp', 'list', '--config', file], 0);
    expect(loaded.some((url) => url.endsWith('/plugin-mcp/bundle/chunks/config.js'))).toBe(true);
    expect(unexpected(loaded)).toEqual([]);
  });
});
