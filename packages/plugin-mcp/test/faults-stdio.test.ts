// Fault injection over stdio (fixtures/fault-server.mjs): each fault ends in the state and message
// the issue asks for, as soon as it asks (told by what ended it and what had happened by then, not
// by a clock, which only says a deadline did not pass early), and the healthy server in the same
// registry is untouched. Every test ends with harness.finish(): the healthy server answers, and
// after disconnectAll no fixture process, handle or unhandled rejection is left
// (support/fault-harness.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMcpError } from '../src/errors/mcp-error.js';
import { failure, useFaultHarness } from './support/fault-harness.js';
import { cancelledIds } from './support/recording.js';
import { failsAtOnce } from './support/waiting.js';

const start = useFaultHarness();

describe('faults at start', () => {
  it('crash at start: failed with the exit code and its stderr, quickly; the healthy server connects', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('crashy', 'crash-at-start')], 'user');
    const status = h.status('crashy');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('connect_failed');
    expect(status.error.message).toContain('"crashy"');
    expect(status.error.message).toContain('closed the connection while connecting');
    expect(status.stderrTail).toContain('fatal: cannot open database');
    expect(status.exit).toEqual({ code: 3 });
    // The exit is noticed, not waited out: a connect its deadline (connect_timeout, 10 s) ended
    // fails with connect_timeout, and one attempt was made.
    expect(h.states('crashy')).toEqual(['connecting', 'failed']);
    expect(h.pids('crashy')).toHaveLength(1);
    expect(h.status('healthy').state).toBe('connected');
    await h.finish();
  });

  it('exit at once, before reading a byte: failed with its exit code, not only "closed"', async () => {
    const h = start();
    const quick = { ...h.stdio('quick'), args: ['-e', "console.error('x'); process.exit(3)"] };
    // Its pipes closed a moment before it exits, as a loaded machine may see a quick exit: the
    // connect fails on the closed pipe before the process's exit event comes.
    const closing = {
      ...h.stdio('closing'),
      args: [
        '-e',
        "const fs = require('node:fs'); console.error('x'); fs.closeSync(0); fs.closeSync(1); setTimeout(() => process.exit(3), 300);",
      ],
    };
    await h.registry.connectAll([h.healthy(), quick, closing], 'user');
    for (const name of ['quick', 'closing']) {
      const status = h.status(name);
      if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
      expect(status.stderrTail).toContain('x');
      expect(status.exit, name).toEqual({ code: 3 });
    }
    await h.finish();
  });

  it('hang in initialize: failed with connect_timeout at the deadline, its process reaped', async () => {
    const h = start();
    const started = performance.now();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('mute', 'hang-initialize', { connectTimeoutMs: 500 })],
      'user',
    );
    const status = h.status('mute');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('connect_timeout');
    expect(status.error.message).toContain('"mute"');
    expect(status.error.message).toContain('within 500 ms');
    // The deadline ended a wait for its answer: initialize had reached the server.
    expect(h.received('mute').some((r) => r.in?.method === 'initialize')).toBe(true);
    // Not before the deadline: a lower bound, which no slow machine fails (a timer never fires
    // early; Node counts it from when it is set).
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    // Ended by our close at the deadline: not an exit of its own to report.
    expect(status.exit).toBeUndefined();
    expect(h.pids('mute').length).toBe(1);
    await h.finish();
  });

  it('npx silent until connect_timeout (downloading, or offline): the message says so, not "check its stderr"', async () => {
    const h = start();
    // A real `npx` would fetch the package and print nothing meanwhile; this one is a launcher of
    // that name running a server that never answers initialize, and writes no stderr either.
    const bin = await mkdtemp(join(tmpdir(), 'epoch-npx-'));
    h.own(() => rm(bin, { recursive: true, force: true }));
    const npx = join(bin, 'npx');
    await writeFile(npx, `#!/bin/sh\nexec "${process.execPath}" "$@"\n`, { mode: 0o755 });
    const started = performance.now();
    await h.registry.connectAll(
      [
        h.healthy(),
        h.stdio('fetching', 'hang-initialize', { command: npx, connectTimeoutMs: 500 }),
      ],
      'user',
    );
    const status = h.status('fetching');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.stderrTail).toBe('');
    expect(status.error).toEqual({
      code: 'connect_timeout',
      message:
        'MCP server "fetching" did not finish connecting within 500 ms (the connect timeout covers start, initialize and the first tools/list). It wrote nothing to stderr: "npx" may still be downloading the package, or this machine may be offline. Run the command once in a terminal to see, or give it a longer connect timeout.',
    });
    expect(h.received('fetching').some((r) => r.in?.method === 'initialize')).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    await h.finish();
  });

  it('command not found: failed with command_not_found at once, saying what is missing and what to do', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy()], 'user');
    await h.registry.connectAll(
      [h.stdio('missing', 'none', { command: 'epoch-no-such-server-cmd' })],
      'user',
    );
    const status = h.status('missing');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('command_not_found');
    expect(status.error.message).toBe(
      'MCP server "missing": command "epoch-no-such-server-cmd" was not found on PATH. Install it, or give its full path in "command".',
    );
    // At once: one attempt, ended by the failed start, not by connect_timeout (10 s), whose code
    // it would carry, and not retried.
    expect(h.states('missing')).toEqual(['connecting', 'failed']);
    await h.finish();
  });
});

describe('faults during a call', () => {
  it('hang in a tool: request_timeout at the timeout, and the server got notifications/cancelled', async () => {
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('stuck', 'hang-tool', { timeoutMs: 300 })],
      'user',
    );
    const started = performance.now();
    const error = await failure(h.call('stuck', 'work'));
    expect(isMcpError(error, 'request_timeout')).toBe(true);
    expect((error as Error).message).toContain('"stuck"');
    expect((error as Error).message).toContain('"work"');
    expect((error as Error).message).toContain('notifications/cancelled');
    // The timeout ended a wait for its answer: the call had reached the server.
    const call = h.received('stuck').find((r) => r.in?.method === 'tools/call');
    expect(call).toBeDefined();
    // Not before the deadline: a lower bound, which no slow machine fails (a timer never fires
    // early; Node counts it from when it is set).
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    await expect.poll(() => cancelledIds(h.received('stuck'))).toEqual([call?.in?.id]);
    // Only the call is over: the server is still connected and answers the next one.
    expect(h.status('stuck').state).toBe('connected');
    await h.expectEcho('stuck');
    await h.finish();
  });

  it('garbage on stdout: non-JSON lines and non-JSON-RPC JSON are skipped; the server keeps working', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('noisy', 'garbage')], 'user');
    expect(h.status('noisy').state).toBe('connected');
    expect(h.status('noisy').toolCount).toBe(2);
    const result = await h.call('noisy', 'work');
    expect(result.content).toEqual([{ type: 'text', text: 'worked' }]);
    await h.expectEcho('noisy');
    expect(h.states('noisy')).toEqual(['connecting', 'connected']);
    await h.finish();
  });

  it('truncated frame, then valid messages: the cut line is skipped and the real answer arrives', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('cut', 'truncated-continue')], 'user');
    const result = await h.call('cut', 'work');
    expect(result.content).toEqual([{ type: 'text', text: 'worked after a cut frame' }]);
    await h.expectEcho('cut');
    expect(h.states('cut')).toEqual(['connecting', 'connected']);
    await h.finish();
  });

  it('a 20 MB tool result arrives intact (whole, as epoch mcp call prints it)', async () => {
    const size = 20 * 1024 * 1024;
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('bulky', 'big', {}, [`--bytes=${size}`])],
      'user',
    );
    // The model's execute cuts it at max_output_tokens (output-cap.test.ts); the whole one is
    // what crosses the transport.
    const result = await h
      .tool('bulky', 'work')
      .executeUncut({}, { signal: new AbortController().signal });
    const [block] = result.content;
    if (block?.type !== 'text') throw new Error(`expected one text block, got ${block?.type}`);
    expect(block.text.length).toBe(size);
    expect(block.text === bigText(size)).toBe(true);
    await h.expectEcho('bulky');
    await h.finish();
  });
});

describe('a line over the 64 MiB bound', () => {
  const over = `--bytes=${64 * 1024 * 1024 + 1024 * 1024}`;
  /** The line's size when it was stopped (what was read of it), the limit, and what was done. */
  const said =
    /wrote a line of \d+\.\d MiB \((\d+) bytes\) on stdout without ending it, over the limit of 64 MiB \(67108864 bytes\) for one message; no line that long is read as a message, so the server was stopped/;
  const sizeIn = (message: string): number => Number(said.exec(message)?.[1]);

  it('while connecting: failed, saying the line was too long and the server was stopped', async () => {
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('flood', 'endless-line', {}, [over])],
      'user',
    );
    const status = h.status('flood');
    if (status.state !== 'failed') throw new Error(`expected failed, got ${status.state}`);
    expect(status.error.code).toBe('connect_failed');
    expect(status.error.message).toContain('"flood" failed to connect: the server wrote a line');
    expect(status.error.message).toMatch(said);
    expect(sizeIn(status.error.message)).toBeGreaterThan(64 * 1024 * 1024);
    expect(status.error.message).not.toContain('closed the connection');
    await h.finish();
  });

  it('in a tool answer: the call fails and the state says why the server was stopped', async () => {
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('flood', 'endless-call', {}, [over])],
      'user',
    );
    const lost: string[] = [];
    h.registry.onStatus((status) => {
      if (status.name === 'flood' && status.state === 'reconnecting')
        lost.push(status.error.message);
    });
    const error = await failure(h.call('flood', 'work'));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    // The call's own error says why, not "it may have exited".
    const message = (error as Error).message;
    expect(message).toContain('MCP server "flood": tools/call "work" failed');
    expect(message).toMatch(said);
    expect(sizeIn(message)).toBeGreaterThan(64 * 1024 * 1024);
    expect(message).not.toContain('may have exited');
    await h.waitForState('flood', 'connected');
    expect(lost[0]).toContain('"flood" wrote a line');
    expect(lost[0]).toMatch(said);
    expect(lost[0]).toContain('so the server was stopped; reconnecting in the background');
    await h.finish();
  });
});

describe('a server that dies, and the watchdog', () => {
  it('crash mid-call: the call fails at once, the server is reconnecting, then connected again', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('fragile', 'crash-mid-call')], 'user');
    const work = h.tool('fragile', 'work');
    // At once: the call's timeout (10 s) would end it with request_timeout.
    const error = await failure(h.call('fragile', 'work'));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    expect((error as Error).message).toContain('"fragile"');
    await h.waitForState('fragile', 'reconnecting');
    const status = h.status('fragile');
    if (status.state !== 'reconnecting') throw new Error('unreachable');
    expect(status.stderrTail).toContain('fatal: segfault in work');
    // A call made now (the state is read in the same tick) fails at once with a message the
    // model can read; it does not wait for the reconnect.
    expect(h.status('fragile').state).toBe('reconnecting');
    const before = [...h.states('fragile')];
    const calling = work.execute({}, { signal: new AbortController().signal });
    // It waited for nothing, and the server's state did not move.
    const during = await failsAtOnce(calling);
    expect(during.message).toContain('"fragile"');
    expect(during.message).toMatch(/reconnect/i);
    expect(h.states('fragile')).toEqual(before);
    await h.waitForState('fragile', 'connected');
    expect(h.states('fragile')).toContain('reconnecting');
    expect(h.pids('fragile').length).toBeGreaterThanOrEqual(2);
    await h.expectEcho('fragile');
    await h.finish();
  });

  it('a server that never comes back: reconnecting through every attempt, then failed', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('doomed', 'die-for-good')], 'user');
    const work = h.tool('doomed', 'work');
    await h.call('doomed', 'work').catch(() => {});
    await h.waitForState('doomed', 'failed');
    expect(h.states('doomed')).toContain('reconnecting');
    // The first process and one per attempt of the series.
    expect(h.pids('doomed')).toHaveLength(4);
    const status = h.status('doomed');
    if (status.state !== 'failed') throw new Error('unreachable');
    expect(status.error.message).toContain('"doomed"');
    // Each start's exit was noticed, not waited out: connect_timeout (10 s) says connect_timeout.
    expect(status.error.code).toBe('connect_failed');
    expect(status.stderrTail).toContain('fatal: cannot open database');
    // The last attempt's exit, carried through the series to the give-up.
    expect(status.exit).toEqual({ code: 3 });
    const states = [...h.states('doomed')];
    const calling = work.execute({}, { signal: new AbortController().signal });
    // At once: the call began a new series in the background and waited for nothing, its first
    // start (100 ms on, a process of its own) least.
    const after = await failsAtOnce(calling);
    expect(after.message).toContain('"doomed"');
    expect(h.states('doomed').slice(states.length)).toEqual(['reconnecting']);
    expect(h.pids('doomed')).toHaveLength(4);
    await h.finish();
  });

  it('a server that never comes back, its stdin found closed before its exit is seen: one process per attempt, met as before', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('gone', 'leave-for-good')], 'user');
    await h.call('gone', 'work').catch(() => {});
    await h.waitForState('gone', 'failed');
    // Each later start answered initialize and left before notifications/initialized could reach
    // it: the era it was met with held, so no attempt asked it again (no probe, no second process).
    expect(h.pids('gone')).toHaveLength(4);
    const methods = h.received('gone').flatMap((r) => r.in?.method ?? []);
    expect(methods.filter((method) => method === 'server/discover')).toHaveLength(1);
    expect(methods.filter((method) => method === 'initialize')).toHaveLength(4);
    const status = h.status('gone');
    if (status.state !== 'failed') throw new Error('unreachable');
    expect(status.error.message).toContain('"gone"');
    expect(status.stderrTail).toContain('fatal: cannot open database');
    await h.finish();
  });

  it('truncated frame, then exit: the call fails with connection_closed and the server comes back', async () => {
    const h = start();
    await h.registry.connectAll([h.healthy(), h.stdio('halfway', 'truncated-exit')], 'user');
    // At once: the call's timeout (10 s) would end it with request_timeout.
    const error = await failure(h.call('halfway', 'work'));
    expect(isMcpError(error, 'connection_closed')).toBe(true);
    expect((error as Error).message).toContain('"halfway"');
    await h.waitForState('halfway', 'connected');
    expect(h.states('halfway')).toContain('reconnecting');
    await h.expectEcho('halfway');
    await h.finish();
  });

  it('exit after N calls, then recover: reconnecting, then connected on a new process', async () => {
    const h = start();
    await h.registry.connectAll(
      [h.healthy(), h.stdio('tired', 'exit-after-calls', {}, ['--n=2'])],
      'user',
    );
    await h.expectEcho('tired');
    await h.expectEcho('tired');
    const [first] = h.pids('tired');
    await h.waitForState('tired', 'reconnecting');
    await h.waitForState('tired', 'connected');
    expect(h.pids('tired')).toHaveLength(2);
    expect(h.pids('tired')[0]).toBe(first);
    await h.expectEcho('tired');
    await h.finish();
  });
});

/** fault-server.mjs's `big` text: printable ASCII whose run shifts every KiB. */
function bigText(size: number): string {
  const buffer = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) buffer[i] = 33 + ((i + (i >>> 10)) % 94);
  return buffer.toString('latin1');
}
