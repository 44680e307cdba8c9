// Ctrl-C and SIGTERM for the `epoch` process. The first one aborts the signal every command
// watches: it stops waiting, closes every server and reaps their process trees, and exits 130. The
// close is bounded by the servers' grace periods, so a second one only says what is going on; a
// third quits at once, leaving whatever was still being closed, because a person asked three times.
import type { CliIo } from './io.js';

export function interruptSignal(err: CliIo['err']): AbortSignal {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    count += 1;
    if (count === 1) controller.abort(new Error(`interrupted by ${signal}`));
    else if (count === 2) {
      err(
        '\nepoch: closing the MCP servers and stopping their processes; press Ctrl-C once more to quit now and leave them running.\n',
      );
    } else process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}
