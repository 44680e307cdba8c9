// `epoch web` as a person runs it: a real process that prints the page's URL at once, serves the API
// over the runtime (the servers of the file, connecting behind it), and on Ctrl-C stops the page
// and reaps every server, connected or not, before it exits 130.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerArgs, waitUntil } from '@epoch-agent/testkit';
import type { McpView } from '@epoch-agent/web';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fakeOpener } from '../../plugin-mcp/test/support/fake-opener.js';
import { readViewsUntil } from '../../web/test/web-helpers.js';
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
  const file = await configWith('tools', [], pidFile);
  const run = startEpoch(['web', '--config', file], { EPOCH_HOME: join(dir, 'home') });
  const url = await printedUrl(run);
  const token = url.hash.slice('#token='.length);
  const events = await fetch(new URL('/api/events', url), {
    headers: { Authorization: `Bearer ${token}` },
  });
  await readViewsUntil(events, (view) => view.groups.user[0]?.status?.state === 'connected');
  seen.push(...recordedPids(pidFile).flatMap((pid) => identify(pid) ?? []));
  expect(seen).toHaveLength(1);

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

it('epoch web prints the URL while a server never answers, which the API shows connecting; Ctrl-C reaps it while it connects', async () => {
  const pidFile = join(dir, 'pids');
  const file = await configWith('mute', ['--never-start'], pidFile);
  const run = startEpoch(['web', '--config', file], { EPOCH_HOME: join(dir, 'home') });
  const url = await printedUrl(run);
  const token = url.hash.slice('#token='.length);
  const api = await fetch(new URL('/api/mcp', url), {
    headers: { Authorization: `Bearer ${token}` },
  });
  const view = (await api.json()) as McpView;
  expect(view.groups.user[0]?.status?.state).toBe('connecting');
  // Nothing but the URL: the page says how the servers are doing.
  expect(run.out()).toBe(
    `The connectors page of ${file}:\n\n  ${url.href}\n\nCtrl-C stops it and every MCP server.\n`,
  );
  expect(run.err()).toBe('');

  // Its process is started behind the URL: once it runs, Ctrl-C must reap it.
  const pids = await waitUntil(() => {
    const recorded = recordedPids(pidFile);
    return recorded.length > 0 && recorded;
  }, `a pid in ${pidFile}`);
  seen.push(...pids.flatMap((pid) => identify(pid) ?? []));
  expect(seen).toHaveLength(1);
  run.child.kill('SIGINT');
  expect((await run.done).code).toBe(130);
  expect(seen.filter(isRunning)).toEqual([]);
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

/** An mcp.json of one fixture server, `name`, run with `flags`, recording its pids in `pidFile`. */
async function configWith(name: string, flags: string[], pidFile: string): Promise<string> {
  const file = join(dir, 'mcp.json');
  const server = {
    command: process.execPath,
    args: [...TOOL_SERVER, ...flags],
    env: { PID_FILE: pidFile },
  };
  await writeFile(file, JSON.stringify({ servers: { [name]: server } }));
  return file;
}
