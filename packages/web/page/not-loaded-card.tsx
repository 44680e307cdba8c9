// An entry of a file that was not loaded (a misspelled or invalid field, a name another server
// holds): a card of its own where the server would be, so it does not vanish from the page, saying
// that it was not loaded, where it is written and why.
import type { NotLoadedView } from '../src/api-types.js';
import { EntryProblems } from './entry-problems.js';

export function NotLoadedCard({ entry }: { readonly entry: NotLoadedView }) {
  const { name, at, problems } = entry;
  return (
    <article class="server not-loaded" data-server={name} data-state="notLoaded" aria-label={name}>
      <div class="head">
        <span class="dot bad" aria-hidden="true" />
        <h3>{name}</h3>
        <span class="state bad">not loaded</span>
      </div>
      <p class="origin">
        Its entry at{' '}
        <code>
          {at.file}:{at.line}:{at.column}
        </code>{' '}
        was not loaded, so epoch does not start it: fix what is said below there and save, and it is
        loaded.
      </p>
      <EntryProblems problems={problems} />
    </article>
  );
}
