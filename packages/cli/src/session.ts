// A command's runtime: built the way the agent's is (the one assembly, @epoch-agent/runtime), with
// progress lines while it connects, the servers that need approval asked about (approval.ts),
// Ctrl-C wired to it, and always closed — every server, every process tree — whatever the command
// does, throws or is interrupted by.
import {
  type BuildRuntimeOptions,
  buildRuntime,
  FRONT_END_START,
  type McpServerStatus,
  type Runtime,
} from '@epoch-agent/runtime';
import { type ApprovalMode, approveHeld } from './approval.js';
import type { Invocation } from './command.js';
import type { QuestionAsker } from './elicit.js';
import type { CliIo } from './io.js';
import { startProgress } from './progress.js';

export interface SessionOptions
  extends Pick<
    BuildRuntimeOptions,
    'connectOnly' | 'registry' | 'onRead' | 'projectDir' | 'logger'
  > {
  /**
   * Every status change while the servers start, with a `print` that writes on `out` above the
   * progress lines: for a command that shows each server as it settles.
   */
  readonly onStatus?:
    | ((status: McpServerStatus, print: (text: string) => void) => void)
    | undefined;
  /** What becomes of the servers it starts that need approval (default: held, never asked). */
  readonly approval?: ApprovalMode | undefined;
  /**
   * Who answers the servers' questions (elicitation): the person at this terminal, the progress
   * lines held off it while they are asked. Absent, the servers are told nobody can be asked.
   */
  readonly asker?: QuestionAsker | undefined;
}

export async function withRuntime<T>(
  io: CliIo,
  invocation: Invocation,
  options: SessionOptions,
  body: (runtime: Runtime) => Promise<T>,
): Promise<T> {
  const { onStatus, approval = 'never', asker, ...runtimeOptions } = options;
  // With the servers' log messages on stderr (--verbose) no lines are drawn: they would be moved
  // by every message, and the messages say how the start goes.
  const progress = startProgress(io, !invocation.json && options.logger === undefined);
  // A server may ask as soon as it has connected, before the others have.
  const unpause = asker?.pause(progress.hold);
  // The listener stays on the registry for the runtime's life; the start is all it is for.
  let starting = true;
  let runtime: Runtime;
  try {
    runtime = await buildRuntime({
      ...runtimeOptions,
      ...(asker === undefined ? {} : { elicit: asker.elicit }),
      // A person runs a command to see servers work: each starts, unless its entry says on_demand.
      registry: { start: FRONT_END_START, ...runtimeOptions.registry },
      configFile: invocation.configFile,
      signal: io.signal,
      onStatus: (status) => {
        if (!starting) return;
        progress.onStatus(status);
        onStatus?.(status, progress.print);
      },
    });
    await approve(runtime, io, approval, progress.hold);
  } finally {
    starting = false;
    unpause?.();
    progress.stop();
  }
  // An interrupt while the command waits (a reconnect, a server still starting): closing settles
  // every wait. One turn later, so a request in flight sees the abort first and tells its server
  // (notifications/cancelled) before the connection goes.
  const close = () => setImmediate(() => void runtime.close());
  io.signal.addEventListener('abort', close, { once: true });
  try {
    return await body(runtime);
  } finally {
    io.signal.removeEventListener('abort', close);
    await runtime.close();
  }
}

/**
 * Before the progress lines go: an approved server starts here, and is drawn while it does. Ctrl-C
 * while it starts, or while a question waits, closes the runtime and ends the command there (as an
 * interrupted build does): nothing more is shown.
 */
async function approve(
  runtime: Runtime,
  io: CliIo,
  mode: ApprovalMode,
  hold: <T>(task: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const close = () => void runtime.close();
  io.signal.addEventListener('abort', close, { once: true });
  try {
    await approveHeld(runtime, io, mode, hold);
    io.signal.throwIfAborted();
  } catch (error) {
    await runtime.close();
    throw error;
  } finally {
    io.signal.removeEventListener('abort', close);
  }
}
