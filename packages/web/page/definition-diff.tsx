// A tool's definition before and after, line by line, as the runtime's definitionDiff gives it:
// a removed line is marked "-" and an added one "+", and a screen reader says "removed" and
// "added", so no line's meaning rests on its colour. The server's words are text, never markup,
// and shown whole, a bidi or control character as an escape (what is approved must read as what it
// is). A long run of unchanged lines is folded, a few kept on each side of a change, and opens on
// demand. A long line wraps inside the box, which scrolls by itself rather than pushing the page.
import type { McpDefinitionLine } from '@epoch-agent/runtime';
import { launchText } from './text.js';

type Kind = McpDefinitionLine['kind'];

// A Record over every kind, so a kind added to the diff without its marks fails to compile.
const MARKS: Record<Kind, { readonly sign: string; readonly said: string }> = {
  same: { sign: ' ', said: '' },
  removed: { sign: '-', said: 'removed: ' },
  added: { sign: '+', said: 'added: ' },
};

interface Props {
  readonly lines: readonly McpDefinitionLine[];
  /** What the box is, for a screen reader: `Definition of lookup, before and after`. */
  readonly label: string;
}

export function DefinitionDiff({ lines, label }: Props) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, and a keyboard must reach it to scroll it (WCAG 2.1.1).
    <section class="definition-diff" aria-label={label} tabIndex={0}>
      {folded(lines).map((part, i) =>
        'fold' in part ? (
          <details class="unchanged" key={i}>
            <summary>{part.fold.length} unchanged lines</summary>
            {part.fold.map((line, j) => (
              <Line key={j} line={line} />
            ))}
          </details>
        ) : (
          <Line key={i} line={part} />
        ),
      )}
    </section>
  );
}

// Unchanged lines kept on each side of a change: enough to see where in the definition it is.
const CONTEXT = 3;

type Part = McpDefinitionLine | { readonly fold: readonly McpDefinitionLine[] };

/** The lines in order, each run of unchanged ones longer than the context around changes folded. */
function folded(lines: readonly McpDefinitionLine[]): Part[] {
  const parts: Part[] = [];
  for (let start = 0; start < lines.length; ) {
    let end = start;
    while (lines[end]?.kind === 'same') end++;
    if (end === start) {
      parts.push(lines[start] as McpDefinitionLine);
      start++;
      continue;
    }
    // Context only towards a change: none before the first line or after the last.
    const head = start === 0 ? 0 : CONTEXT;
    const tail = end === lines.length ? 0 : CONTEXT;
    if (end - start > head + tail + 1) {
      parts.push(...lines.slice(start, start + head));
      parts.push({ fold: lines.slice(start + head, end - tail) });
      parts.push(...lines.slice(end - tail, end));
    } else {
      parts.push(...lines.slice(start, end));
    }
    start = end;
  }
  return parts;
}

function Line({ line }: { readonly line: McpDefinitionLine }) {
  const { sign, said } = MARKS[line.kind];
  const content = (
    <>
      <span class="sign" aria-hidden="true">
        {sign}{' '}
      </span>
      {said !== '' && <span class="visually-hidden">{said}</span>}
      {launchText(line.text)}
    </>
  );
  if (line.kind === 'removed') return <del class="line">{content}</del>;
  if (line.kind === 'added') return <ins class="line">{content}</ins>;
  return <span class="line">{content}</span>;
}
