// What loading a file found about one entry, on that entry's card: each problem with its
// file:line:column and field path, errors first in the file's order.
import type { RuntimeDiagnostic } from '@epoch-agent/runtime';

export function EntryProblems({ problems }: { readonly problems: readonly RuntimeDiagnostic[] }) {
  if (problems.length === 0) return null;
  const hasError = problems.some(({ severity }) => severity === 'error');
  return (
    <ul
      class="entry-problems diagnostics"
      aria-label="Problems in its entry"
      role={hasError ? 'alert' : undefined}
    >
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
