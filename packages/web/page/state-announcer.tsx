// The one place the page tells a screen reader that a server changed state ("broken: failed"),
// politely, in a live region that is on the page from the start. Only changes are said: the states
// the page opens with are read from the cards like the rest of the page, not announced at once
// (three failed servers as three alerts drowned everything else).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { McpView } from '../src/api-types.js';
import { STATE_LOOKS } from './states.js';

export function StateAnnouncer({ view }: { readonly view: McpView | undefined }) {
  const [said, setSaid] = useState('');
  const last = useRef<ReadonlyMap<string, string> | undefined>(undefined);
  useEffect(() => {
    if (view === undefined) return;
    const now = wordsOf(view);
    const before = last.current;
    last.current = now;
    if (before === undefined) return;
    const changes: string[] = [];
    for (const [name, word] of now) {
      const was = before.get(name);
      if (was !== undefined && was !== word) changes.push(`${name}: ${word}`);
    }
    for (const name of before.keys()) if (!now.has(name)) changes.push(`${name}: removed`);
    if (changes.length > 0) setSaid(changes.join('; '));
  }, [view]);
  return (
    <p class="visually-hidden" aria-live="polite" data-announcer="">
      {said}
    </p>
  );
}

/** Each server's state word, by name. */
function wordsOf(view: McpView): Map<string, string> {
  const words = new Map<string, string>();
  for (const server of Object.values(view.groups).flat()) {
    words.set(server.name, STATE_LOOKS[server.status?.state ?? 'disconnected'].word);
  }
  return words;
}
