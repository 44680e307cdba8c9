// `epoch web` as a person runs it: a real process that prints the page's URL, serves the API over
// the runtime (the servers of the file, connected), and on Ctrl-C stops the page and reaps every
// server before it exits 130.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs } from '@epoch-agent/testkit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fakeOpener } from '../../plugin-mcp/test/support/fake-opener.js';
import { type EpochProcess, startEpoch } from './epoch-process.js';
import { identify, isRunning, killAll, type ProcessIdentity, recordedPids } from './processes.js';

/** The fixture server's `cli` tools (echo, fail, image, slow, whoami): arguments after node. */
const TOOL_SERVER = fixtureServerArgs('cli');

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
        tools: { command: process.execPath, args: [...TOOL_SERVER], env: { PID_FILE: pidFile } },
      },
    }),
  );
  const run = startEpoch(['web', '--config', file], { EPOCH_HOME: join(dir, 'home') });
  const url = await printedUrl(run);
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

it('epoch web --open gives the opener a one-time address without the key, which leads to the page with it once', async () => {
  const file = join(dir, 'mcp.json');
  await writeFile(file, JSON.stringify({ servers: {} }));
  const opener = await fakeOpener(dir);
  const run = startEpoch(['web', '--open', '--config', file], {
    EPOCH_HOME: join(dir, 'home'),
    ...opener.env,
  });
  try {
    const printed = await printedUrl(run);
    const token = printed.hash.slice('#token='.length);
    const argv = await opener.firstRun();
    expect(argv).toHaveLength(1);
    expect(argv.join(' ')).not.toContain(token);
    const opened = new URL(argv[0] ?? '');
    expect(opened.origin).toBe(printed.origin);
    expect(opened.pathname).toMatch(/^\/open\/[A-Za-z0-9_-]{43}$/);

    // What the browser does with it: one redirect, to the page with the key.
    const answer = await fetch(opened, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    const page = new URL(answer.headers.get('location') ?? '', opened);
    expect(page.href).toBe(printed.href);
    const api = await fetch(new URL('/api/mcp', page), {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(api.status).toBe(200);
    // Whoever reads the command line after that gets nothing.
    const late = await fetch(opened, { redirect: 'manual' });
    expect(late.status).toBe(410);
    expect(await late.text()).not.toContain(token);
    expect(await opener.runs()).toHaveLength(1);
  } finally {
    run.child.kill('SIGINT');
    expect((await run.done).code).toBe(130);
  }
});

/** The page's URL once `epoch web` has printed it. */
async function printedUrl(run: EpochProcess): Promise<URL> {
  const [found] = await run.printed(/http:\/\/127\.0\.0\.1:\d+\/#token=\S+\s/);
  return new URL(found.trim());
}
