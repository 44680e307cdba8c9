// The page's only clock: the counters that change with time (how long a server has been
// connecting, when its next reconnect attempt comes, how long a Try has run) each re-render
// themselves once a second, and nothing else does. One timer serves every counter on the page, and
// runs only while one is shown: with thirty servers, a page that re-rendered itself whole every
// second spent tens of milliseconds of every second doing it.
import { useEffect, useState } from 'preact/hooks';
import { forSeconds, inSeconds } from './text.js';

const TICK_MS = 1000;
const listeners = new Set<(now: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** Date.now(), again every second while the calling component is shown. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    listeners.add(setNow);
    timer ??= setInterval(() => {
      const at = Date.now();
      for (const listener of listeners) listener(at);
    }, TICK_MS);
    return () => {
      listeners.delete(setNow);
      if (listeners.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, []);
  return now;
}

/** `for 4 s`, counting up. */
export function ForSeconds({ since }: { readonly since: number }) {
  return <>{forSeconds(since, useNow())}</>;
}

/** `in 3 s`, counting down to `now`. */
export function InSeconds({ at }: { readonly at: number }) {
  return <>{inSeconds(at, useNow())}</>;
}
