// What the page says about the files themselves, at its top: a file that could not be read at all
// (the servers shown from it are as last loaded, which is what runs), and the problems that concern
// no one server. What concerns one server is on its card (entry-problems.tsx).
import type { RuntimeDiagnostic } from '@epoch-agent/runtime';
import type { McpView } from '../src/api-types.js';
import { ProblemLine } from './entry-problems.js';

export function FileProblems({ view }: { readonly view: McpView }) {
  return (
    <>
      {view.unreadable.map((d) => (
        <Unreadable key={`${d.file}:${d.code}`} diagnostic={d} />
      ))}
      {view.fileProblems.length > 0 && (
        <section class="group diagnostics" aria-label="Problems in the files">
          <h2>Problems in the files</h2>
          <ul>
            {view.fileProblems.map((d) => (
              <li key={`${d.file}:${d.line}:${d.column}:${d.code}:${d.path}`} class={d.severity}>
                <ProblemLine diagnostic={d} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

function Unreadable({ diagnostic: d }: { readonly diagnostic: RuntimeDiagnostic }) {
  return (
    <div class="problem unreadable" role="alert" aria-label="A file that was not read">
      <p>
        <strong>
          <code>{d.file}</code> was not read
        </strong>{' '}
        (line {d.line}, column {d.column}): {d.message}
      </p>
      <p>
        Fix it there and save: epoch reads it again as soon as it changes. Until then the servers
        shown from it are those last loaded, which are what is running.
      </p>
    </div>
  );
}
