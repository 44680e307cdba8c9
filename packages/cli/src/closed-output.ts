// A stdout its reader closed (`epoch mcp status | head -1`). ls and git are killed by SIGPIPE
// there, which a shell shows as 141 and otherwise says nothing; node gets EPIPE instead, an
// 'error' event that would crash with a stack trace and leave the servers' process trees running.
// So the command is stopped as Ctrl-C stops it (every server it started is closed and reaped),
// nothing more is written, and the exit code is ls's: 141 (128 + SIGPIPE). A stderr that is
// closed too (`2>&1 | head`) is the same pipe: nothing is written there either.

export interface OutputWatch {
  /** Aborted when stdout's reader has gone. */
  readonly signal: AbortSignal;
  /** stdout's reader has gone: nothing reaches it any more. */
  readonly closed: () => boolean;
}

export function watchOutput(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream): OutputWatch {
  const controller = new AbortController();
  let closed = false;
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!gone(error)) throw error;
    closed = true;
    controller.abort(new Error("stdout's reader closed it"));
  });
  // Nothing to tell it to: stderr's reader left as well.
  stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (!gone(error)) throw error;
  });
  return { signal: controller.signal, closed: () => closed };
}

/** The reader has gone: EPIPE, or a write after it that the destroyed stream refused. */
function gone(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
}
