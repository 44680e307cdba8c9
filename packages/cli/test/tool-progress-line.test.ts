// The progress line of `epoch mcp call` on a terminal, on a fake clock: drawn at once, then at most
// once per redraw interval with the latest report, never again for the same text, and nothing after
// stop(). A million reports write a few lines, not one per report (the real terminal and server
// are mcp-call-progress.test.ts's).
import { type PaceClock, READING_PACE_MS } from '@epoch-agent/infra';
import type { ToolProgress } from '@epoch-agent/protocol';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../src/io.js';
import { startToolProgress } from '../src/progress.js';

/** What a line drawing starts with: to the line's start, and clear it. */
const ERASE_LINE = '\r\x1b[K';

/** A clock whose time moves only when the test moves it; timers fire as it passes them. */
class FakeClock implements PaceClock {
  #now = 1_000_000;
  #timers: Array<{ at: number; run: () => void }> = [];

  now(): number {
    return this.#now;
  }

  later(ms: number, run: () => void): () => void {
    const timer = { at: this.#now + ms, run };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((each) => each !== timer);
    };
  }

  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter(({ at }) => at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((each) => each !== due);
      this.#now = due.at;
      due.run();
    }
    this.#now = until;
  }

  get pending(): number {
    return this.#timers.length;
  }
}

function terminal(): { io: CliIo; written: string[] } {
  const written: string[] = [];
  const io: CliIo = {
    out: () => {},
    err: (text) => written.push(text),
    env: { TERM: 'xterm', NO_COLOR: '1' },
    errIsTerminal: true,
    signal: new AbortController().signal,
  };
  return { io, written };
}

const report = (progress: number, message?: string): ToolProgress => ({
  progress,
  total: 100,
  ...(message === undefined ? {} : { message }),
});

describe('the tool progress line', () => {
  it('draws the first report at once, then the latest one once the interval has passed', () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress(io, true, clock);
    line.onProgress(report(1));
    expect(written).toEqual([`${ERASE_LINE}[${'-'.repeat(20)}] 1% 1/100`]);
    line.onProgress(report(2));
    line.onProgress(report(3));
    clock.advance(READING_PACE_MS - 1);
    expect(written).toHaveLength(1);
    clock.advance(1);
    expect(written).toHaveLength(2);
    expect(written[1]).toContain('3/100');
    line.stop();
  });

  it('never redraws a text the line already shows', () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress(io, true, clock);
    line.onProgress(report(5, 'working'));
    for (let i = 0; i < 10; i++) {
      clock.advance(READING_PACE_MS);
      line.onProgress(report(5, 'working'));
    }
    clock.advance(READING_PACE_MS);
    expect(written).toHaveLength(1);
    line.onProgress(report(6, 'working'));
    clock.advance(READING_PACE_MS);
    expect(written).toHaveLength(2);
    line.stop();
  });

  it('erases the line at stop and draws nothing after, though a redraw was due', () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress(io, true, clock);
    line.onProgress(report(1));
    line.onProgress(report(2));
    line.stop();
    expect(written.at(-1)).toBe(ERASE_LINE);
    expect(clock.pending).toBe(0);
    clock.advance(READING_PACE_MS * 10);
    line.onProgress(report(3));
    expect(written).toHaveLength(2);
  });

  it('a hold (a question on the terminal) erases the line, draws none, then draws the latest', async () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress(io, true, clock);
    line.onProgress(report(1));
    let asking = (_: string) => {};
    const held = line.hold(() => new Promise<string>((resolve) => (asking = resolve)));
    expect(written.at(-1)).toBe(ERASE_LINE);
    const before = written.length;
    line.onProgress(report(2));
    clock.advance(READING_PACE_MS * 3);
    line.onProgress(report(3));
    clock.advance(READING_PACE_MS * 3);
    expect(written).toHaveLength(before);
    asking('answered');
    expect(await held).toBe('answered');
    expect(written.at(-1)).toBe(`${ERASE_LINE}[#${'-'.repeat(19)}] 3% 3/100`);
    line.stop();
  });

  it('a hold inside a hold keeps the line off until the outer one ends', async () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress(io, true, clock);
    line.onProgress(report(1));
    let outerDone = () => {};
    const outer = line.hold(() => new Promise<void>((resolve) => (outerDone = resolve)));
    await line.hold(async () => {});
    expect(written.at(-1)).toBe(ERASE_LINE);
    outerDone();
    await outer;
    expect(written.at(-1)).toContain('1/100');
    line.stop();
  });

  it('a million reports over ten seconds write at most one line per interval', () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress(io, true, clock);
    const reports = 1_000_000;
    for (let i = 1; i <= reports; i++) {
      line.onProgress({ progress: i, total: reports, message: 'copying' });
      // 10 µs apart: ten seconds in all.
      if (i % 100 === 0) clock.advance(1);
    }
    clock.advance(READING_PACE_MS);
    line.stop();
    const drawn = written.filter((text) => text.length > ERASE_LINE.length);
    expect(drawn.length).toBeLessThanOrEqual(10_000 / READING_PACE_MS + 2);
    // The last report is what the line showed last.
    expect(drawn.at(-1)).toContain(`${reports}/${reports}`);
    expect(written.join('').length).toBeLessThan(10_000);
  });

  it('draws nothing off a terminal', () => {
    const clock = new FakeClock();
    const { io, written } = terminal();
    const line = startToolProgress({ ...io, errIsTerminal: false }, true, clock);
    line.onProgress(report(1));
    line.stop();
    expect(written).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});
