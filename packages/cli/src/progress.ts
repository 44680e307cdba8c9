// Live progress while servers start, on a terminal only: one line per server that is still
// connecting, with the time it has taken so far, redrawn in place and erased when it is done, so a
// slow server (an `npx` download, a dead host waiting for its connect_timeout) is never a silent
// hang. Nothing is drawn off a terminal or with --json: a pipe or a script gets clean output.
// What a command prints while they are drawn goes above them: `out` and `err` are often the same
// terminal, so the lines are erased first and drawn again below it.
// Colour follows NO_COLOR (https://no-color.org): set to anything but "", none. A terminal that
// says it cannot move the cursor (TERM=dumb: Emacs' shell, some CI logs) is treated as a pipe,
// since every redraw would otherwise be printed as a new line of escape codes.
import type { McpServerStatus } from '@epoch-agent/runtime';
import type { CliIo } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const REDRAW_MS = 100;

export interface Progress {
  /** Feed every status change (BuildRuntimeOptions.onStatus). */
  readonly onStatus: (status: McpServerStatus) => void;
  /** Writes `text` on `out`, above the lines. */
  readonly print: (text: string) => void;
  /** Erases the lines; nothing is drawn after. */
  readonly stop: () => void;
}

export function startProgress(io: CliIo, enabled: boolean): Progress {
  if (!enabled || io.errIsTerminal !== true || io.env.TERM === 'dumb') {
    return { onStatus: () => {}, print: (text) => io.out(text), stop: () => {} };
  }
  const color = (io.env.NO_COLOR ?? '') === '';
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  const since = new Map<string, number>();
  let drawn = 0;
  let frame = 0;
  const erase = () => {
    // To the start of the first line drawn, then clear everything below it.
    if (drawn > 0) io.err(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    erase();
    frame = (frame + 1) % FRAMES.length;
    const now = Date.now();
    const width = Math.max(...[...since.keys()].map((name) => name.length));
    for (const [name, start] of since) {
      const seconds = ((now - start) / 1000).toFixed(1);
      io.err(`${FRAMES[frame]} ${name.padEnd(width)}  ${dim(`connecting… ${seconds} s`)}\n`);
    }
    drawn = since.size;
  };
  const timer = setInterval(draw, REDRAW_MS);
  return {
    onStatus: (status) => {
      if (status.state === 'connecting') since.set(status.name, status.since);
      else since.delete(status.name);
    },
    print: (text) => {
      erase();
      io.out(text);
      draw();
    },
    stop: () => {
      clearInterval(timer);
      erase();
    },
  };
}
