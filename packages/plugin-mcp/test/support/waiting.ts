// Waiting helpers for tests of a client's life: poll until a state or a condition holds, and the
// McpError a promise rejects with.
import type { McpClient } from '../../src/connection/client.js';
import type { McpConnectionStateKind } from '../../src/connection/state.js';
import { isMcpError, type McpError } from '../../src/errors/mcp-error.js';

/** Polls until `condition` holds; throws `what` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function waitForState(
  client: McpClient,
  kind: McpConnectionStateKind,
  timeoutMs = 5_000,
): Promise<void> {
  return waitUntil(
    () => client.state.kind === kind,
    `state ${kind} (it is ${client.state.kind})`,
    timeoutMs,
  );
}

/** The McpError `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isMcpError(error)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

/** How long `run()` took to reject, and the McpError it rejected with. */
export async function timedRejection(
  run: () => Promise<unknown>,
): Promise<{ readonly ms: number; readonly error: McpError }> {
  const started = performance.now();
  const error = await rejection(run());
  return { ms: performance.now() - started, error };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
