// Waiting for something a test cannot be told about: a file another process writes, a process that
// exits on its own, a record a server appends. Where an event exists (a state listener, a line on
// stdout, a promise, a process's 'exit'), a test waits on that instead; this is for the rest.
//
// The deadline is generous on purpose: it only turns a hang into a failure that says what it
// waited for, and must never decide an outcome on a slow or busy machine.

/** How long waitUntil waits unless told otherwise: well under the suite's 30 s test timeout. */
export const WAIT_UNTIL_DEFAULT_MS = 20_000;

/** What a probe gives back while it is not there yet. */
type NotYet = undefined | null | false;

/**
 * Calls `probe` every few milliseconds until it returns something other than undefined, null or
 * false, and resolves with that (a condition resolves with `true`). Throws, naming `what` (a
 * function: asked then, so it can tell what there was instead), after `timeoutMs`; a probe that
 * throws ends the wait with its error.
 */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  what: string | (() => string),
  timeoutMs = WAIT_UNTIL_DEFAULT_MS,
): Promise<Exclude<T, NotYet>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) {
      return value as Exclude<T, NotYet>;
    }
    if (Date.now() > deadline) {
      const awaited = typeof what === 'string' ? what : what();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${awaited}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
