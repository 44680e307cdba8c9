// A command's runtime: built the way the agent's is (the one assembly, @epoch-agent/runtime), with
// progress lines while it connects, Ctrl-C wired to it, and always closed — every server, every
// process tree — whatever the command does, throws or is interrupted by.
import { type BuildRuntimeOptions, buildRuntime, type Runtime } from '@epoch-agent/runtime';
import type { Invocation } from './command.js';
import type { CliIo } from './io.js';
import { startProgress } from './progress.js';

export type SessionOptions = Pick<BuildRuntimeOptions, 'connectOnly' | 'registry'>;

export async function withRuntime<T>(
  io: CliIo,
  invocation: Invocation,
  options: SessionOptions,
  body: (runtime: Runtime) => Promise<T>,
): Promise<T> {
  const progress = startProgress(io, !invocation.json);
  let runtime: Runtime;
  try {
    runtime = await buildRuntime({
      ...options,
      configFile: invocation.configFile,
      signal: io.signal,
      onStatus: progress.onStatus,
    });
  } finally {
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
