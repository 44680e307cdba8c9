// Live progress on a terminal only: a tool call's progress bar (startToolProgress, redrawn a few
// times a second at most, and only when it changed: infra's pacedLatest), and while servers start
// one line per server that is still connecting, with the time it has taken so far, redrawn in
// place and erased when it is done, so a slow server (an `npx` download, a dead host waiting for
// its connect_timeout) is never a silent hang. Nothing is drawn off a terminal or with --json: a pipe or a script gets clean output.
// What a command prints while they are drawn goes above them: `out` and `err` are often the same
// terminal, so the lines are erased first and drawn again below it.
// Colour follows NO_COLOR (https://no-color.org): set to anything but "", none. A terminal that
// says it cannot move the cursor (TERM=dumb: Emacs' shell, some CI logs) is treated as a pipe,
// since every redraw would otherwise be printed as a new line of escape codes.
import {
  type PaceClock,
  pacedLatest,
  READING_PACE_MS,
  realPaceClock,
  visibleText,
} from '@epoch-agent/infra';
import type { ToolProgress } from '@epoch-agent/protocol';
import type { McpServerStatus } from '@epoch-agent/runtime';
import type { CliIo } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const REDRAW_MS = 100;

export interface Progress {
  /** Feed every status change (BuildRuntimeOptions.onStatus). */
  readonly onStatus: (status: McpServerStatus) => void;
  /** Writes `text` on `out`, above the lines. */
  readonly print: (text: string) => void;
  /** Erases the lines and draws none while `task` runs (a question asked on the terminal). */
  readonly hold: <T>(task: () => Promise<T>) => Promise<T>;
  /** Erases the lines; nothing is drawn after. */
  readonly stop: () => void;
}

export function startProgress(io: CliIo, enabled: boolean): Progress {
  if (!enabled || io.errIsTerminal !== true || io.env.TERM === 'dumb') {
    return {
      onStatus: () => {},
      print: (text) => io.out(text),
      hold: (task) => task(),
      stop: () => {},
    };
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
    let width = 0;
    for (const name of since.keys()) width = Math.max(width, name.length);
    for (const [name, start] of since) {
      const seconds = ((now - start) / 1000).toFixed(1);
      io.err(`${FRAMES[frame]} ${name.padEnd(width)}  ${dim(`connecting… ${seconds} s`)}\n`);
    }
    drawn = since.size;
  };
  let timer = setInterval(draw, REDRAW_MS);
  let stopped = false;
  /** Holds under way: an approval's question and a server's may be on the terminal together. */
  let holding = 0;
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
    hold: async (task) => {
      holding += 1;
      clearInterval(timer);
      erase();
      try {
        return await task();
      } finally {
        holding -= 1;
        if (!stopped && holding === 0) timer = setInterval(draw, REDRAW_MS);
      }
    },
    stop: () => {
      stopped = true;
      clearInterval(timer);
      erase();
    },
  };
}

/** A running tool call's progress: one line on a terminal, redrawn as reports come. */
export interface ToolProgressLine {
  readonly onProgress: (progress: ToolProgress) => void;
  /**
   * Erases the line and draws none while `task` runs (a server's question on the terminal); the
   * latest report is drawn again after it.
   */
  readonly hold: <T>(task: () => Promise<T>) => Promise<T>;
  /** Erases the line; nothing is drawn after. */
  readonly stop: () => void;
}

const BAR_CELLS = 20;
/** What of the server's message fits beside the bar, so the line never wraps (and so erases). */
const MESSAGE_CHARS = 40;

/**
 * The progress of `epoch mcp call`, on a terminal that takes cursor commands only (not with
 * --json, a pipe or TERM=dumb): a bar when the server says what it counts to, else the count, and
 * the server's message, its control characters made visible (a server's text is never a command).
 * The first report is drawn at once; after it, the latest report at most every READING_PACE_MS, and
 * only when its line differs from the one shown.
 */
export function startToolProgress(
  io: CliIo,
  enabled: boolean,
  clock: PaceClock = realPaceClock,
): ToolProgressLine {
  if (!enabled || io.errIsTerminal !== true || io.env.TERM === 'dumb') {
    return { onProgress: () => {}, hold: (task) => task(), stop: () => {} };
  }
  const color = (io.env.NO_COLOR ?? '') === '';
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[22m` : text);
  let drawn = false;
  /** The line to draw: kept while a hold keeps it off the terminal. */
  let latest: string | undefined;
  /** Holds under way: the line stays off until the last one ends. */
  let held = 0;
  let stopped = false;
  const erase = () => {
    if (drawn) io.err('\r\x1b[K');
    drawn = false;
  };
  const draw = () => {
    if (held > 0 || stopped || latest === undefined) return;
    io.err(`\r\x1b[K${latest}`);
    drawn = true;
  };
  const line = pacedLatest<ToolProgress>({
    everyMs: READING_PACE_MS,
    text: (progress) => lineOf(progress, dim),
    show: (text) => {
      latest = text;
      draw();
    },
    clock,
  });
  return {
    onProgress: (progress) => line.push(progress),
    hold: async (task) => {
      held += 1;
      erase();
      try {
        return await task();
      } finally {
        held -= 1;
        draw();
      }
    },
    stop: () => {
      stopped = true;
      line.stop();
      erase();
    },
  };
}

function lineOf({ progress, total, message }: ToolProgress, dim: (text: string) => string): string {
  const known = total !== undefined && total > 0;
  const done = known ? Math.min(1, Math.max(0, progress / total)) : 0;
  const filled = Math.round(done * BAR_CELLS);
  const bar = known
    ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_CELLS - filled)}] ${Math.round(done * 100)}% `
    : '';
  const count = known ? `${progress}/${total}` : String(progress);
  const said = message === undefined ? '' : `  ${visibleText(message, { max: MESSAGE_CHARS })}`;
  return `${bar}${count}${dim(said)}`;
}
