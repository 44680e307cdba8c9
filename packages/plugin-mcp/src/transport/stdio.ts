// Our stdio transport: the SDK `Transport` over a server process we start in its own process group
// and session (POSIX), so that closing it can reap the whole tree (reap.ts) instead of only the
// direct child, which is all the SDK's StdioClientTransport signals. Framing is the SDK's own
// newline-delimited JSON-RPC. stderr is always drained: line by line to a callback and into a
// bounded tail (stderr-ring.ts), never inherited, never left to fill its pipe and stall the server.
//
// Node-only (child processes): only the stdio path imports this module.

import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Duplex, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
// Types only: a server spawned ahead of its connection (startAhead) starts before the SDK loads.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import { assertNever, type McpServerExit, type StdioServerConfig } from '../types.js';
import { checkedAnswer, isJsonRpc } from './answer-check.js';
import { type DescriptorSlot, descriptorBudget } from './descriptor-budget.js';
import { recordServer } from './leftovers.js';
import { MessageLines } from './message-lines.js';
import { type ReapableTransport, type ReapOptions, reapTransport } from './reap.js';
import { childEnvironment, commandNotFound, serverLaunch } from './resolve-command.js';
import { StderrRing } from './stderr-ring.js';
import { tooLargeText } from './too-large.js';
import { identify, type TrackedProcess } from './tracked-process.js';

/** What starting a server takes; a `StdioServerConfig` is one. */
export type StdioLaunch = Pick<StdioServerConfig, 'name' | 'command' | 'args' | 'env' | 'cwd'>;

export interface StdioTransportOptions {
  readonly server: StdioLaunch;
  /** Each line the server writes to stderr, as it arrives (the client logs it), secrets blanked. */
  readonly onStderrLine?: (line: string) => void;
  /** The server's redaction policy, applied to its stderr before any of it is kept or handed on
   * (createTransport always passes it; without it nothing is blanked). */
  readonly scrub?: Scrubber;
  /** Grace periods of close() and of the reap after the server exits; reap.ts's defaults when absent. */
  readonly reap?: ReapOptions;
  /** Where a failure to keep the record of the server's process (leftovers.ts) is told. */
  readonly logger?: Logger;
}

/**
 * After the tree is gone its pipes reach EOF at once; this bounds the wait for the last bytes in
 * case a process we could not see (one that escaped before the snapshot) still holds them. Generous,
 * because on a loaded machine the last stderr chunk can take a few hundred ms to be read.
 */
const DRAIN_MS = 1_000;

type State =
  | { readonly kind: 'new' }
  | { readonly kind: 'running'; readonly child: ChildProcessWithoutNullStreams }
  | { readonly kind: 'spawnFailed' }
  | { readonly kind: 'closed' };

export class StdioTransport implements Transport, ReapableTransport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  /** The grace periods of its close; reap.ts's defaults where absent. */
  readonly reapOptions: ReapOptions;
  readonly #server: StdioLaunch;
  readonly #stderr: StderrRing;
  readonly #lines = new MessageLines();
  #state: State = { kind: 'new' };
  #started: Promise<void> | undefined;
  /** Spawned by startAhead(), and start() has not come yet: stdout is paused. */
  #held = false;
  #leader: TrackedProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  /** How the process ended, if it did before its input was ended (before anyone closed it). */
  #exit: McpServerExit | undefined;
  #inputEnded = false;
  /** The server closed its end of the pipes (stdout EOF, or EPIPE on stdin) before we ended its input. */
  #pipesClosedByServer = false;
  /** Held from the spawn until release(): its pipes are read to their end then. */
  #slot: DescriptorSlot | undefined;
  #closeEmitted = false;
  readonly #logger: Logger;
  /** Takes the server out of this process's record of the servers it started (leftovers.ts). */
  #unrecord: (() => Promise<void>) | undefined;

  constructor(options: StdioTransportOptions) {
    this.#server = options.server;
    this.#logger = options.logger ?? silentLogger;
    this.reapOptions = options.reap ?? {};
    this.#stderr = new StderrRing({ onLine: options.onStderrLine, scrub: options.scrub });
  }

  /**
   * Always null: stderr is read here (stderrTail). It is here at all because the SDK tells a stdio
   * transport by its shape (`stderr` beside `pid`), and on stdio a server that closes or stays
   * silent during the era probe (server/discover) is a 2025 one to fall back from, not a failure.
   */
  readonly stderr = null;

  /** The server's pid once spawned (also after close, for diagnostics); undefined before. */
  get pid(): number | undefined {
    return this.#leader?.pid;
  }

  /** @internal for the reaper: the server process as spawned. */
  get leader(): TrackedProcess | undefined {
    return this.#leader;
  }

  /** @internal for the reaper: settles once the server process has exited. */
  get exited(): Promise<void> {
    return this.#exited;
  }

  /** @internal for the reaper: the server process has not been reaped by Node yet. */
  get unreaped(): boolean {
    const state = this.#state;
    return (
      state.kind === 'running' && state.child.exitCode === null && state.child.signalCode === null
    );
  }

  /** The last stderr lines (bounded in lines and bytes), for a failed server's status. */
  stderrTail(): string {
    return this.#stderr.tail();
  }

  /** How the server's process ended by itself (not closed by us); undefined while it runs. */
  exit(): McpServerExit | undefined {
    return this.#exit;
  }

  /** Spawns the server; resolves once it runs. Calling it again joins the first start. */
  start(): Promise<void> {
    this.#started ??= this.#spawn();
    this.#unhold();
    return this.#started;
  }

  /**
   * Spawns the server with its output held: nothing reaches onmessage (which the connection has not
   * set yet) until start(). The server meanwhile starts up; what it writes waits in the pipe.
   */
  startAhead(): Promise<void> {
    this.#held = true;
    this.#started ??= this.#spawn();
    return this.#started;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const state = this.#state;
    if (state.kind !== 'running') return Promise.reject(this.#notConnected());
    return new Promise((resolve, reject) => {
      state.child.stdin.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) reject(this.#notConnected(error));
        else resolve();
      });
    });
  }

  /**
   * Closes the connection and reaps the server's whole process tree (see reap.ts). Never escalates:
   * the SDK calls this on its own; a caller that wants to stop waiting calls closeTransportAndReap.
   */
  close(): Promise<void> {
    return reapTransport(this);
  }

  /** @internal for the reaper. */
  endInput(): Promise<void> {
    this.#inputEnded = true;
    if (this.#state.kind !== 'running') return Promise.resolve();
    const { stdin, stdout, stderr } = this.#state.child;
    // Nothing of ours left to write: closing our end (no end(): a shutdown request, work before
    // the EOF) hands the server its EOF now. What was written before is still the server's to read.
    if (stdin.writableLength === 0) stdin.destroy();
    else stdin.end();
    // release() frees them: Node's teardown at their EOF would hold up the news of the exit.
    for (const stream of [stdout, stderr]) (stream as Duplex).allowHalfOpen = true;
    // An error (EPIPE: the server is gone) ends it too.
    return stdin.destroyed ? Promise.resolve() : finished(stdin).catch(() => {});
  }

  /** @internal for the reaper: the tree is gone; take the last bytes, fire onclose (ReapableTransport). */
  async release(): Promise<void> {
    // Read to its end whatever it wrote; with no connection listening it goes nowhere.
    this.#unhold();
    const state = this.#state;
    this.#state = { kind: 'closed' };
    if (state.kind === 'running') {
      const { stdin, stdout, stderr } = state.child;
      await Promise.all([drained(stdout), drained(stderr)]);
      // Read to their end, the pipes are closed once the caller has its answer; one the drain gave
      // up on (a process we could not reap holds it) now, or it feeds onmessage after onclose.
      for (const stream of [stdout, stderr]) if (!stream.readableEnded) stream.destroy();
      setImmediate(() => {
        for (const stream of [stdin, stdout, stderr]) stream.destroy();
      });
      if (!stderr.readableEnded) this.#stderr.end(); // else its 'end' listener has flushed it
    }
    this.#slot?.release();
    const unrecorded = this.#unrecord?.();
    this.#lines.clear();
    this.#emitClose();
    // The close is over once the record no longer names the server: nothing of it is written
    // into $EPOCH_HOME after that (for the last server, the record is deleted by then).
    await unrecorded;
  }

  /** Lets a held server's output flow (startAhead). */
  #unhold(): void {
    if (!this.#held) return;
    this.#held = false;
    if (this.#state.kind === 'running') this.#state.child.stdout.resume();
  }

  async #spawn(): Promise<void> {
    const launching = serverLaunch();
    const launch = typeof launching === 'function' ? launching : await launching;
    if (this.#state.kind !== 'new') throw this.#notConnected();
    const slot = descriptorBudget.take();
    if (slot === undefined) {
      this.#state = { kind: 'spawnFailed' };
      throw this.#noSlot();
    }
    this.#slot = slot;
    const { command, args, env, cwd } = this.#server;
    let child: ChildProcess;
    try {
      child = slot.spawn(() =>
        launch(command, args, {
          env: childEnvironment(env),
          ...(cwd === undefined ? {} : { cwd }),
          stdio: 'pipe',
          shell: false,
          // PLATFORM: POSIX only. `detached` makes the server the leader of a new session and
          // process group, so one signal reaches every helper it starts; on Windows it would open
          // a console.
          detached: process.platform !== 'win32',
          windowsHide: true,
        }),
      );
    } catch (error) {
      throw this.#failSpawn(error as NodeJS.ErrnoException);
    }
    if (!hasPipes(child)) {
      // Out of descriptors (EMFILE, ENFILE): Node gives back a child without pipes or a process
      // and reports why in an 'error' event on the next tick.
      return new Promise((_, reject) => {
        child.once('error', (error: NodeJS.ErrnoException) => reject(this.#failSpawn(error)));
      });
    }
    this.#state = { kind: 'running', child };
    child.stdout.on('data', (chunk: Buffer) => this.#onStdout(chunk));
    if (this.#held) child.stdout.pause();
    child.stderr.on('data', (chunk: Buffer) => this.#stderr.write(chunk));
    // Before 'close' fires, so a failed server's status gets its last line even without a newline.
    child.stderr.on('end', () => this.#stderr.end());
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stderr.on('error', (error) => this.onerror?.(error));
    // EPIPE after the server exited; the write callback already rejects the send() it belongs to.
    child.stdin.on('error', () => this.#serverClosedPipes());
    child.stdout.once('end', () => this.#serverClosedPipes());
    if (child.pid !== undefined) {
      // Known as soon as spawn() returns, so a close() that races start() still reaps the tree.
      this.#leader = identify(child.pid);
      // Until its tree is reaped (release()): a process of ours that starts after this one died
      // without closing it ends the tree then.
      this.#unrecord = recordServer(this.#server.name, this.#leader, this.#logger);
      this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
      // Before the reap below, which ends the input: an exit after that is the close's doing —
      // unless the server had closed its pipes first. A connect fails on the closed pipe before
      // the exit event comes; the close that follows waits for the exit (within its graces), and
      // an exit code then is the server's own (a signal would be the close's).
      child.once('exit', (code, signal) => {
        if (this.#inputEnded && !(this.#pipesClosedByServer && code !== null)) return;
        this.#exit = code !== null ? { code } : { signal: signal ?? 'unknown' };
      });
      // The server went away on its own: reap whatever it left behind. The connection is over
      // once its output has been read to the end, which 'close' (exit + stdout/stderr EOF) tells.
      child.once('exit', () => void reapTransport(this));
      child.once('close', () => this.#emitClose());
    }
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid !== undefined) return this.onerror?.(error);
        child.stdin.destroy();
        child.stdout.destroy();
        child.stderr.destroy();
        reject(this.#failSpawn(error));
      });
    });
  }

  #serverClosedPipes(): void {
    if (!this.#inputEnded) this.#pipesClosedByServer = true;
  }

  /** No process was started: its pipes are gone (or never were), so its slot goes back. */
  #failSpawn(error: NodeJS.ErrnoException): McpError {
    if (this.#state.kind !== 'closed') this.#state = { kind: 'spawnFailed' };
    this.#slot?.release();
    return this.#spawnError(error);
  }

  #onStdout(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.#lines.push(chunk);
    } catch (error) {
      // One message larger than the cap: the stream cannot be re-synchronised.
      this.onerror?.(error as Error);
      void reapTransport(this);
      return;
    }
    for (const line of lines) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        // As the SDK's own stdio transport does: a line that is not JSON (a server logging to
        // stdout, a frame cut short, a blank line) is skipped; the next one may be fine.
        continue;
      }
      // Only the envelope is checked here: the SDK's Protocol checks the whole message when it
      // routes it, and reports one it cannot route. Checking it here as well (the SDK's
      // deserializeMessage) cost more than anything else the client does per call. An answer the
      // SDK would drop fails its request instead (answer-check.ts).
      if (!isJsonRpc(message)) {
        this.onerror?.(new Error('the server wrote JSON that is not a JSON-RPC 2.0 message'));
        continue;
      }
      this.onmessage?.(checkedAnswer(message));
    }
  }

  #emitClose(): void {
    if (this.#closeEmitted) return;
    this.#closeEmitted = true;
    this.onclose?.();
  }

  #spawnError(error: NodeJS.ErrnoException): McpError {
    const { name, command, cwd } = this.#server;
    if (error.code === 'EMFILE' || error.code === 'ENFILE') {
      const scope = error.code === 'EMFILE' ? 'this process' : 'the system';
      return new McpError(
        'too_many_open_files',
        `MCP server "${name}": could not start command "${command}": ${scope} ran out of file descriptors (${error.code}: too many open files${limitNote()}). ` +
          'Raise the limit (`ulimit -n`) or configure fewer servers.',
        { server: name, cause: error },
      );
    }
    // Node reports a missing cwd as ENOENT too; only a missing command is "not found on PATH".
    if (error.code === 'ENOENT' && (cwd === undefined || existsSync(cwd))) {
      return commandNotFound(name, command, error);
    }
    if (error.code === 'E2BIG') {
      const { args, env } = this.#server;
      const launch = { command, args, env: childEnvironment(env), configured: env };
      return new McpError(
        'spawn_failed',
        `MCP server "${name}": could not start command "${command}": ${tooLargeText(launch)}`,
        { server: name, cause: error },
      );
    }
    const where = error.code === 'ENOENT' ? ` in "${cwd}" (that directory does not exist)` : '';
    return new McpError(
      'spawn_failed',
      `MCP server "${name}": could not start command "${command}"${where}: ${error.code ?? error.message}. ` +
        'Check that "command" is an executable and that "cwd" exists.',
      { server: name, cause: error },
    );
  }

  #noSlot(): McpError {
    const { name, command } = this.#server;
    return new McpError(
      'too_many_open_files',
      `MCP server "${name}": command "${command}" was not started: too many open files. This process can hold ${descriptorBudget.capacity} stdio servers at once within its limit of ${descriptorBudget.limit} open files, and that many are running. ` +
        'Raise the limit (`ulimit -n`) or configure fewer servers.',
      { server: name },
    );
  }

  #notConnected(cause?: Error): McpError {
    const { name } = this.#server;
    const what = this.#describe();
    return new McpError(
      'connection_closed',
      `MCP server "${name}": ${what}; reconnect to use it.`,
      {
        server: name,
        cause,
      },
    );
  }

  #describe(): string {
    const state = this.#state;
    switch (state.kind) {
      case 'new':
        return 'the stdio transport was not started';
      case 'running':
        return this.#inputEnded
          ? 'the stdio connection is closing'
          : 'the server stopped reading its stdin';
      case 'spawnFailed':
        return 'the server process could not be started';
      case 'closed':
        return 'the stdio connection is closed';
      default:
        return assertNever(state, 'stdio transport state');
    }
  }
}

function limitNote(): string {
  const { limit } = descriptorBudget;
  return limit === undefined ? '' : `, limit ${limit}`;
}

function hasPipes(child: ChildProcess): child is ChildProcessWithoutNullStreams {
  // Undefined rather than null when Node gave up before making them (EMFILE).
  return child.stdin != null && child.stdout != null && child.stderr != null;
}

/** Resolves at the stream's end, or after DRAIN_MS if something we could not reap still holds it. */
function drained(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stream.off('end', done);
      stream.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_MS);
    stream.once('end', done);
    stream.once('close', done);
  });
}
