// Waiting helpers for tests of a client's life: a client's state or a registry server's status
// reached (told by their own listeners, not polled), the McpError a promise rejects with, and
// that of a call that fails without waiting for anything.
import { WAIT_UNTIL_DEFAULT_MS } from '@epoch-agent/testkit';
import type { McpClient } from '../../src/connection/client.js';
import type { McpConnectionStateKind } from '../../src/connection/state.js';
import { isMcpError, type McpError } from '../../src/errors/mcp-error.js';
import type { McpRegistry } from '../../src/registry/registry.js';
import type { McpServerState } from '../../src/types.js';

/**
 * Resolves when `holds()` is true: at once if it is now, else at the first event (from
 * `subscribe`, which returns its unsubscribe) after which it is. The deadline only turns a hang
 * into a failure that says what was awaited.
 */
function whenEvent(
  holds: () => boolean,
  subscribe: (check: () => void) => () => void,
  what: () => string,
  timeoutMs: number,
): Promise<void> {
  if (holds()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what()}`));
    }, timeoutMs);
    const stop = subscribe(() => {
      if (!holds()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

/** Resolves when `client` is in state `kind`: now, or at its change into it. */
export function waitForState(
  client: McpClient,
  kind: McpConnectionStateKind,
  timeoutMs = WAIT_UNTIL_DEFAULT_MS,
): Promise<void> {
  let last = client.state.kind;
  return whenEvent(
    () => last === kind,
    (check) =>
      client.onStateChange((state) => {
        last = state.kind;
        check();
      }),
    () => `state ${kind} (it is ${client.state.kind})`,
    timeoutMs,
  );
}

/** Resolves when `registry`'s server `name` has status `state`: now, or at its change into it. */
export function waitForStatus(
  registry: McpRegistry,
  name: string,
  state: McpServerState,
  timeoutMs = WAIT_UNTIL_DEFAULT_MS,
): Promise<void> {
  const now = () => registry.statuses().find((s) => s.name === name)?.state;
  let last = now();
  return whenEvent(
    () => last === state,
    (check) =>
      registry.onStatus((status) => {
        if (status.name !== name) return;
        last = status.state;
        check();
      }),
    () => `"${name}" to be ${state} (it is ${now()})`,
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

/**
 * The McpError a call that must fail at once rejects with. "At once": it settles before the event
 * loop turns (before a setImmediate queued now), so it waited for no timer, no I/O and no other
 * process, only for promise callbacks; told without a clock.
 */
export async function failsAtOnce(promise: Promise<unknown>): Promise<McpError> {
  const settled = promise.then(
    () => true,
    () => true,
  );
  const turned = new Promise<boolean>((resolve) => setImmediate(() => resolve(false)));
  if (!(await Promise.race([settled, turned]))) {
    throw new Error('expected the call to settle before the event loop turned; it waited');
  }
  return rejection(promise);
}
