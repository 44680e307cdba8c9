// Shows the latest of a stream of reports at a pace a person can read: the first at once, then the
// latest at most once per interval, and never the same text twice in a row. A server may send a
// million progress reports in a few seconds; drawn or sent one by one they cost a terminal, a
// browser and the CPU in between far more than the work they report, and nobody reads them.
// The CLI's progress line and the page's streamed Try both pace their reports with this.

/**
 * The least time between two reports shown to a person: a few a second is what can be read, and
 * a server may send thousands.
 */
export const READING_PACE_MS = 200;

/** The time reports are paced by: Node's timers by default, a fake clock in tests. */
export interface PaceClock {
  now(): number;
  /** Runs `run` once, `ms` from now; the function returned cancels it. */
  later(ms: number, run: () => void): () => void;
}

export const realPaceClock: PaceClock = {
  now: () => Date.now(),
  later(ms, run) {
    // A report due never keeps the process alive: the end of what it reports stops it anyway.
    const timer = setTimeout(run, ms).unref();
    return () => clearTimeout(timer);
  },
};

export interface PacedLatestOptions<T> {
  /** The least time between two texts shown. */
  readonly everyMs: number;
  /** The text of a report; made only for a report that is shown, so a flood costs a few. */
  readonly text: (report: T) => string;
  /** Shows a text (draws a line, writes a line to a stream). */
  readonly show: (text: string) => void;
  readonly clock?: PaceClock;
}

export interface PacedLatest<T> {
  /** A new report: shown at once when the interval has passed, else the latest when it has. */
  push(report: T): void;
  /** Nothing is shown after this; a report waiting is dropped. */
  stop(): void;
}

export function pacedLatest<T>(options: PacedLatestOptions<T>): PacedLatest<T> {
  const { everyMs, text, show, clock = realPaceClock } = options;
  /** The report not shown yet: only the latest counts. */
  let latest: { readonly report: T } | undefined;
  let shown: string | undefined;
  let lastShown = Number.NEGATIVE_INFINITY;
  let cancel: (() => void) | undefined;
  let stopped = false;
  const showLatest = (): void => {
    cancel = undefined;
    if (latest === undefined || stopped) return;
    const made = text(latest.report);
    latest = undefined;
    lastShown = clock.now();
    if (made === shown) return;
    shown = made;
    show(made);
  };
  return {
    push(report) {
      if (stopped) return;
      latest = { report };
      if (cancel !== undefined) return;
      const wait = lastShown + everyMs - clock.now();
      if (wait <= 0) showLatest();
      else cancel = clock.later(wait, showLatest);
    },
    stop() {
      stopped = true;
      cancel?.();
      cancel = undefined;
      latest = undefined;
    },
  };
}
