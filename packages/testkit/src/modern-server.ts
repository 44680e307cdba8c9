// Where the testkit's 2026-07-28 server is (modern-server.mjs, built on the official server SDK;
// its header says what each argument does), and how a test runs it over Streamable HTTP.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const MODERN_SERVER = fileURLToPath(new URL('../modern-server.mjs', import.meta.url));
/** The 2026-07-28 server with task tools (task-server.mjs: the tasks extension, on the same SDK). */
export const TASK_SERVER = fileURLToPath(new URL('../task-server.mjs', import.meta.url));

export interface RunningModernServer {
  /** Its Streamable HTTP endpoint on 127.0.0.1. */
  readonly url: string;
  /** Ends it (SIGTERM to its process group) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * The 2026-07-28 server (or `program`: TASK_SERVER) over Streamable HTTP with `args`; resolves once
 * it listens.
 */
export async function startModernHttp(
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  program: string = MODERN_SERVER,
): Promise<RunningModernServer> {
  const child = spawn(process.execPath, [program, '--http', ...args], {
    env: { ...process.env, ...env },
    // Its own process group, so stop() takes it down whatever it started.
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-(child.pid as number), 'SIGTERM');
    }
    await exited;
  };
  for await (const line of createInterface({ input: child.stdout })) {
    const url = /^listening (\S+)$/.exec(line)?.[1];
    if (url !== undefined) return { url, stop };
  }
  await stop();
  throw new Error(`the 2026-07-28 server exited before it listened (${program})`);
}
