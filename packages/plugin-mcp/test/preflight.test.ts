// The preflight: a server that cannot possibly start fails at once with a message that says why
// (missing command, a file that cannot run, a bad cwd, a refused port, a URL that does not parse),
// instead of after connect_timeout; `skip_preflight` leaves the finding to the spawn or the
// transport; the TCP probe is bounded and honours the connect attempt. "At once" is told by what
// ended the attempt (a check's code, not connect_timeout's; no server process started), not by a
// clock.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort, remoteConfig } from '@epoch-agent/testkit';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { isMcpError, type McpError } from '../src/errors/mcp-error.js';
import type { HttpServerConfig, McpServerConfig, StdioServerConfig } from '../src/types.js';
import { recordDir, recordingConfig } from './support/recording.js';

// The connection's code (and the SDK) loads on a client's first connect, once per process: loaded
// before a test freezes the timers (close() during the probe).
beforeAll(() => import('../src/connection/connection.js'));

let dir: ReturnType<typeof recordDir>;
let epochHome: string | undefined;
const cleanups: Array<() => Promise<void> | void> = [];

beforeEach(() => {
  dir = recordDir();
  // Remote transports keep OAuth tokens under EPOCH_HOME: never the real one.
  epochHome = process.env.EPOCH_HOME;
  process.env.EPOCH_HOME = dir.path;
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  if (epochHome === undefined) delete process.env.EPOCH_HOME;
  else process.env.EPOCH_HOME = epochHome;
  dir.remove();
});

function client(config: McpServerConfig): McpClient {
  const created = new McpClient({ config });
  cleanups.push(() => created.close());
  return created;
}

function stdio(overrides: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return recordingConfig('pre', join(dir.path, 'record.jsonl'), {}, overrides);
}

function http(url: string, overrides: Partial<HttpServerConfig> = {}): HttpServerConfig {
  return remoteConfig('pre-http', 'http', url, {
    timeoutMs: 300_000,
    connectTimeoutMs: 20_000,
    supportsParallel: false,
    ...overrides,
  });
}

/** connect()'s rejection and the failed state's message. */
async function failedConnect(c: McpClient): Promise<{ error: McpError; message: string }> {
  const error = await c.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isMcpError(error)) throw new Error(`expected an McpError, got ${String(error)}`);
  const state = c.state;
  if (state.kind !== 'failed') throw new Error(`expected failed, got ${state.kind}`);
  expect(state.code).toBe(error.code);
  return { error, message: state.message };
}

/** No process of the recording server started (it records its start first thing). */
function nothingStarted(): void {
  expect(existsSync(join(dir.path, 'record.jsonl'))).toBe(false);
}

describe('stdio preflight', () => {
  it('a missing command fails at once, naming the command and PATH', async () => {
    const { error, message } = await failedConnect(
      client(stdio({ command: 'epoch-no-such-command-xyz' })),
    );
    expect(error.code).toBe('command_not_found');
    expect(message).toContain('"pre"');
    expect(message).toContain('"epoch-no-such-command-xyz"');
    expect(message).toContain('PATH');
    nothingStarted();
  });

  it('a command that is a file without execute permission fails at once, naming the file', async () => {
    const script = join(dir.path, 'server.sh');
    writeFileSync(script, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    const { error, message } = await failedConnect(client(stdio({ command: script })));
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain(`"${script}"`);
    expect(message).toContain('cannot be run');
    nothingStarted();
  });

  it('a PATH hit that is not executable is reported, not skipped silently', async () => {
    const bin = join(dir.path, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'epoch-tool'), 'not a program', { mode: 0o644 });
    const { error, message } = await failedConnect(
      client(stdio({ command: 'epoch-tool', env: { PATH: bin } })),
    );
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain(join(bin, 'epoch-tool'));
  });

  it('a missing cwd fails at once, naming "cwd" and the directory', async () => {
    const cwd = join(dir.path, 'no-such-dir');
    const { error, message } = await failedConnect(client(stdio({ cwd })));
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain('"cwd"');
    expect(message).toContain(cwd);
    expect(message).toContain('does not exist');
    nothingStarted();
  });

  it('a cwd that is a file fails at once: it is not a directory', async () => {
    const cwd = join(dir.path, 'a-file');
    writeFileSync(cwd, 'x');
    const { error, message } = await failedConnect(client(stdio({ cwd })));
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain('is not a directory');
    nothingStarted();
  });

  it("finds the command the way the spawn does: on the server's own PATH, or relative to its cwd", async () => {
    const bin = join(dir.path, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'epoch-node'));
    const onPath = client(stdio({ name: 'on-path', command: 'epoch-node', env: { PATH: bin } }));
    await onPath.connect();
    expect(onPath.state.kind).toBe('connected');
    const relative = client(
      stdio({ name: 'relative', command: './bin/epoch-node', cwd: dir.path }),
    );
    await relative.connect();
    expect(relative.state.kind).toBe('connected');
  });

  it('skip_preflight skips the checks: a missing cwd is then reported by the spawn itself', async () => {
    const cwd = join(dir.path, 'no-such-dir');
    const { error, message } = await failedConnect(client(stdio({ cwd, skipPreflight: true })));
    expect(error.code).toBe('spawn_failed');
    expect(message).toContain('that directory does not exist');
  });

  it('skip_preflight skips the checks: a file without execute permission is refused by the spawn', async () => {
    const copy = join(dir.path, 'node-copy');
    copyFileSync(process.execPath, copy);
    chmodSync(copy, 0o644);
    const { error, message } = await failedConnect(
      client(stdio({ command: copy, skipPreflight: true })),
    );
    expect(error.code).toBe('spawn_failed');
    expect(message).toContain('EACCES');
  });
});

describe('remote preflight', () => {
  it('a refused TCP port fails at once, naming host:port, instead of waiting for connect_timeout', async () => {
    const port = await freeLoopbackPort();
    const { error, message } = await failedConnect(client(http(`http://127.0.0.1:${port}/mcp`)));
    // Ended by the refusal: not by the probe's 2 s ("did not accept ... within"), nor by
    // connect_timeout (20 s here).
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain('"pre-http"');
    expect(message).toContain(`127.0.0.1:${port}`);
    expect(message).toContain('ECONNREFUSED');
  });

  it('a URL that does not parse fails at once, without printing the URL', async () => {
    const { error, message } = await failedConnect(
      client(http('http://exa mple.com:99999/mcp?key=s3cret')),
    );
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain('"url" is not a valid URL');
    expect(message).not.toContain('s3cret');
  });

  it('a URL that is not http(s) fails at once, its query redacted', async () => {
    const { error, message } = await failedConnect(client(http('ftp://127.0.0.1/mcp?key=s3cret')));
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain('ftp:');
    expect(message).not.toContain('s3cret');
  });

  it('skip_preflight skips the TCP check: the refused port is then the transport’s own failure', async () => {
    const port = await freeLoopbackPort();
    const { error } = await failedConnect(
      client(http(`http://127.0.0.1:${port}/mcp`, { skipPreflight: true })),
    );
    expect(error.code).toBe('connect_failed');
  });

  it('a port that never completes the handshake fails after the 2 s probe, not connect_timeout', async () => {
    const port = await unansweredPort();
    const started = performance.now();
    const { error, message } = await failedConnect(client(http(`http://127.0.0.1:${port}/mcp`)));
    // The probe's own bound ended it (connect_timeout, 20 s here, says connect_timeout).
    expect(error.code).toBe('preflight_failed');
    expect(message).toContain('did not accept a TCP connection within 2 s');
    expect(message).toContain('skip_preflight');
    // Not before the probe's 2 s: a lower bound, which no slow machine fails (a timer never fires
    // early; Node counts it from when it is set).
    expect(performance.now() - started).toBeGreaterThan(1_900);
  });

  it('the probe spends the connect deadline: a shorter connect_timeout ends it as connect_timeout', async () => {
    const port = await unansweredPort();
    const { error } = await failedConnect(
      client(http(`http://127.0.0.1:${port}/mcp`, { connectTimeoutMs: 300 })),
    );
    // The deadline, not the probe's 2 s (preflight_failed), ended it.
    expect(error.code).toBe('connect_timeout');
  });

  it('close() during the probe ends the connect attempt at once', async () => {
    const port = await unansweredPort();
    const c = client(http(`http://127.0.0.1:${port}/mcp`));
    const before = socketsTo(port);
    // Timers stand still: the probe's 2 s (and connect_timeout) never pass, so only close() can
    // end the attempt; one that waited for the probe would hang here.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => {
      vi.useRealTimers();
    });
    const connecting = c.connect().catch((e: unknown) => e);
    // The probe is under way once its socket is (its SYN out, unanswered); looked for at each turn
    // of the loop, since a wait on a timer would stand still too.
    while (socketsTo(port) === before) await nextTurn();
    await c.close();
    const error = await connecting;
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    expect(c.state.kind).toBe('disconnected');
    expect(socketsTo(port)).toBe(before);
  });
});

/** How many sockets here connect, or are connected, to 127.0.0.1:`port` (/proc/net/tcp). */
function socketsTo(port: number): number {
  return readFileSync('/proc/net/tcp', 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .filter((line) => {
      const [, , remote, state] = line.trim().split(/\s+/);
      const established = '01';
      const synSent = '02';
      return (
        (state === established || state === synSent) &&
        Number.parseInt(remote?.split(':')[1] ?? '', 16) === port
      );
    }).length;
}

/**
 * A 127.0.0.1 port whose accept queue is full (fixtures/full-backlog.mjs): a new connect() there
 * neither succeeds nor fails, it hangs. Queue-filling sockets and the listener are cleaned up.
 */
async function unansweredPort(): Promise<number> {
  const fixture = fileURLToPath(new URL('./fixtures/full-backlog.mjs', import.meta.url));
  const listener: ChildProcess = spawn(process.execPath, [fixture], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const fillers: Socket[] = [];
  cleanups.push(() => {
    for (const socket of fillers) socket.destroy();
    listener.kill('SIGKILL');
  });
  const port = await new Promise<number>((resolve, reject) => {
    listener.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString('utf8'))));
    listener.once('exit', (code) => reject(new Error(`full-backlog.mjs exited with ${code}`)));
  });
  // Fill the queue until a connect() no longer completes within 300 ms.
  for (let i = 0; i < 10; i++) {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => {});
    fillers.push(socket);
    const done = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 300);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!done) return port;
  }
  throw new Error(`127.0.0.1:${port} kept accepting connections; cannot simulate a dropped SYN`);
}
