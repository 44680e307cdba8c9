// The `epoch` command and servers started on demand, through the real bin in fresh processes: a
// server that ignores the era probe (server/discover) costs its wait on the first `status` only,
// the next `status` process going straight to initialize; `status` still starts a server whose
// entry says on_demand (it is asked to connect every server), while `tools` shows it `notStarted`
// with its cached tools and starts nothing; `get` shows the field.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';
import { processesWith } from './processes.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-on-demand-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function methods(record: string): (string | undefined)[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { method?: string }).method);
}

describe('epoch mcp and servers started on demand', () => {
  it('a server that ignores server/discover is probed by the first status process only', async () => {
    const file = join(dir, 'mcp.json');
    const record = join(dir, 'record.jsonl');
    const entry = {
      command: process.execPath,
      args: fixtureServerArgs('pid', '--silent-unknown'),
      env: { RECORD_FILE: record },
      // The probe waits for half of it at most.
      connect_timeout: 4,
    };
    await writeFile(file, JSON.stringify({ servers: { silent: entry } }));
    const env = { EPOCH_HOME: join(dir, 'home') };

    const first = await epoch(['mcp', 'status', '--json', '--config', file], env);
    expect(first.code, first.err).toBe(0);
    expect(methods(record).slice(0, 2)).toEqual(['server/discover', 'initialize']);
    await writeFile(record, '');

    const second = await epoch(['mcp', 'status', '--json', '--config', file], env);
    expect(second.code, second.err).toBe(0);
    expect(JSON.parse(second.out).servers[0].state).toBe('connected');
    expect(methods(record)[0]).toBe('initialize');
    expect(methods(record)).not.toContain('server/discover');
  });

  it('status starts an on-demand server; tools then shows it not started, with its cached tools; get shows the field', async () => {
    const file = join(dir, 'mcp.json');
    const marker = `--tag=${randomUUID()}`;
    const entry = {
      command: process.execPath,
      args: fixtureServerArgs('pid', marker),
      start: 'on_demand',
    };
    await writeFile(file, JSON.stringify({ servers: { lazy: entry } }));
    const env = { EPOCH_HOME: join(dir, 'home'), NO_COLOR: '1' };

    const status = await epoch(['mcp', 'status', '--json', '--config', file], env);
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out).servers[0].state).toBe('connected');

    const tools = await epoch(['mcp', 'tools', '--config', file], env);
    expect(tools.code, tools.err).toBe(0);
    expect(tools.out).toContain('mcp__lazy__whoami');
    expect(tools.out).toContain('not started');
    const json = await epoch(['mcp', 'tools', '--json', '--config', file], env);
    expect(JSON.stringify(JSON.parse(json.out))).toContain('"notStarted"');
    expect(await processesWith(marker)).toEqual([]);

    const get = await epoch(['mcp', 'get', 'lazy', '--config', file], env);
    expect(get.code, get.err).toBe(0);
    expect(get.out).toMatch(/start +line \d+ +on_demand/);
    // Started on demand, it is released after 5 minutes without a call unless its entry says.
    expect(get.out).toMatch(/idle_timeout_seconds +default +300 s/);
  });
});
