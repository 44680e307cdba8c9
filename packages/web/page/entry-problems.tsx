// What loading a file found about one entry, on that entry's card: each problem with its
// file:line:column and field path, in the order loading found them.
import type { RuntimeDiagnostic } from '@epoch-agent/runtime';

export function EntryProblems({ problems }: { readonly problems: readonly RuntimeDiagnostic[] }) {
  if (problems.length === 0) return null;
  // Not an alert: what the file says is there when the page opens, not news; a state that changes
  // is announced by the card's state.
  return (
    <ul class="entry-problems diagnostics" aria-label="Problems in its entry">
      {problems.map((d) => (
        <li key={`${d.file}:${d.line}:${d.column}:${d.code}:${d.path}`} class={d.severity}>
          <ProblemLine diagnostic={d} />
        </li>
      ))}
    </ul>
  );
}

/** `file:line:column path — message` */
export function ProblemLine({ diagnostic: d }: { readonly diagnostic: RuntimeDiagnostic }) {
  return (
    <>
      <code>
        {d.file}:{d.line}:{d.column}
      </code>{' '}
      {d.path !== '' && <code>{d.path}</code>} — {d.message}
    </>
  );
}
