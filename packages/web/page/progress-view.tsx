// A call's latest progress report as the page shows it (a Try's, a recorded task's being followed):
// a bar when the server says what it counts to, else the count, with the server's message.
import type { ToolProgress } from '@epoch-agent/runtime';
import { serverText } from './text.js';

/** The server's latest report: a bar when it says what it counts to, else the count. */
export function ProgressView({
  progress: { progress, total, message },
}: {
  progress: ToolProgress;
}) {
  const known = total !== undefined && total > 0;
  return (
    <p class="try-progress">
      <progress
        aria-label="Progress of the call"
        {...(known ? { value: Math.min(progress, total), max: total } : {})}
      />{' '}
      <span class="count">{known ? `${progress} of ${total}` : `${progress}`}</span>
      {message !== undefined && <span class="message"> {serverText(message)}</span>}
    </p>
  );
}
