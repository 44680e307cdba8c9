// `epoch web` as a person runs it: a real process that prints the page's URL, serves the API over
// the runtime (the servers of the file, connected), and on Ctrl-C stops the page and reaps every
// server before it exits 130.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startEpoch } from './epoch-process.js';
import { identify, isRunning, killAll, type ProcessIdentity, recordedPids } from './processes.js';

const TOOL_SERVER = fileURLToPath(new URL('./fixtures/tool-server.mjs', import.meta.url));

let dir: string;
let seen: ProcessIdentity[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-web-'));
  seen = [];
});

afterEach(async () => {
  killAll(seen);
  await rm(dir, { recursive: true, force: true });
});

it('epoch web prints a URL with its key, serves the servers of the file, and Ctrl-C reaps them and exits 130', async () => {
  const pidFile = join(dir, 'pids');
  const file = join(dir, 'mcp.json');
  await writeFile(
    file,
    JSON.stringify({
      servers: {
        tools: { command: process.execPath, args: [TOOL_SERVER], env: { PID_FILE: pidFile } },
      },
    }),
  );
  const run = startEpoch(['web', '--config', file], { EPOCH_HOME: join(dir, 'home') });
  const deadline = Date.now() + 20_000;
  let url: URL | undefined;
  while (url === undefined) {
    const found = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(run.out())?.[0];
    if (found !== undefined) url = new URL(found);
    else if (Date.now() > deadline) throw new Error(`no URL printed: ${run.out()} ${run.err()}`);
    else await new Promise((resolve) => setTimeout(resolve, 25));
  }
  seen.push(...recordedPids(pidFile).flatMap((pid) => identify(pid) ?? []));
  expect(seen).toHaveLength(1);

  const token = url.hash.slice('#token='.length);
  const api = await fetch(new URL('/api/mcp', url), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(api.status).toBe(200);
  expect(JSON.stringify(await api.json())).toContain('mcp__tools__echo');
  const keyless = await fetch(new URL('/api/mcp', url));
  expect(keyless.status).toBe(401);

  run.child.kill('SIGINT');
  const { code } = await run.done;
  expect(code).toBe(130);
  expect(seen.filter(isRunning)).toEqual([]);
  await expect(fetch(new URL('/api/mcp', url))).rejects.toThrow();
});
