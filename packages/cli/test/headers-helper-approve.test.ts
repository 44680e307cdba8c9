// A headers helper is a program epoch runs, so it is part of what an approval covers, through the
// real `epoch` binary in real processes: a plugin's remote server with `headers_helper` waits for
// approval with the helper shown and the helper not run; `approve --yes` runs it and connects (the
// reference server over Streamable HTTP); a plugin that changes the helper's words waits again.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEverything, startEverything } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EpochRun, epoch } from './epoch-process.js';

const SERVER = 'tp__remote';
const TOKEN = 'helper-token-0b8e6c51d2';

let dir: string;
let home: string;
let config: string;
let everything: RunningEverything;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-headers-helper-'));
  home = join(dir, 'home');
  config = join(home, 'mcp.json');
  everything = await startEverything('http');
  if (everything.endpoint.transport === 'stdio') throw new Error('a remote endpoint was asked for');
  url = everything.endpoint.url;
  await mkdir(join(home, 'plugins', 'tp'), { recursive: true });
  await writeFile(
    join(dir, 'helper.cjs'),
    `require('node:fs').appendFileSync(${JSON.stringify(join(dir, 'runs.log'))}, process.env.EPOCH_MCP_HEADERS_REASON + '\\n');
process.stdout.write(JSON.stringify({ Authorization: 'Bearer ${TOKEN}' }));`,
  );
  await writeFile(config, '{ "servers": {} }\n');
});

afterAll(async () => {
  await everything?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function plugin(helperArgs: readonly string[]): Promise<void> {
  const remote = {
    type: 'http',
    url,
    headers_helper: [process.execPath, join(dir, 'helper.cjs'), ...helperArgs],
  };
  await writeFile(join(home, 'plugins', 'tp', 'mcp.json'), JSON.stringify({ servers: { remote } }));
}

function mcp(...args: string[]): Promise<EpochRun> {
  return epoch(['mcp', ...args, '--config', config], { EPOCH_HOME: home });
}

const runs = async () =>
  (await readFile(join(dir, 'runs.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

describe('a headers helper and the approval of what a server runs', () => {
  it('waits for approval with the helper shown, and the helper is not run', async () => {
    await plugin(['--audience', 'one']);
    const status = await mcp('status');
    expect(status.code).toBe(1);
    expect(status.out).toMatch(/^tp__remote\s+plugin\s+http\s+needsApproval/m);
    expect(status.out).toContain(
      `    headers from: ${process.execPath} ${join(dir, 'helper.cjs')} --audience one (runs here, before its requests)`,
    );
    const json = JSON.parse((await mcp('status', '--json')).out);
    expect(json.servers[0].launch.headersHelper).toEqual([
      process.execPath,
      join(dir, 'helper.cjs'),
      '--audience',
      'one',
    ]);
    expect(await runs()).toEqual([]);
  });

  it('approve --yes runs it and connects; what it printed is never shown', async () => {
    const approved = await mcp('approve', SERVER, '--yes');
    expect(approved.err).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.out).toContain(`Approved. ${SERVER} is connected`);
    expect(await runs()).toEqual(['connect']);
    expect(approved.out + approved.err).not.toContain(TOKEN);
  });

  it('other words for the helper are another launch: it waits again', async () => {
    await plugin(['--audience', 'two']);
    const json = JSON.parse((await mcp('status', '--json')).out);
    expect(json.servers[0]).toMatchObject({ state: 'needsApproval', reason: 'changed' });
    expect(await runs()).toEqual(['connect']);
  });
});
