// A server's recent output in its card, as an editor's output pane shows it: its log messages
// (notifications/message, with their level and logger) and the lines it wrote to stderr, oldest
// first, read from GET …/output when opened and then every few seconds while it stays open (only
// the lines newer than those shown). epoch web keeps the last ones, redacted; the page keeps what
// it read, to the same bound.
import type { McpServerOutput, McpServerOutputLine } from '@epoch-agent/runtime';
import { useEffect, useState } from 'preact/hooks';
import type { ServerView } from '../src/api-types.js';
import type { Api } from './api.js';
import { serverText, stderrText } from './text.js';

const POLL_MS = 2000;
/** As many as epoch web keeps (plugin-mcp's OUTPUT_MAX_LINES): what is shown is what it has. */
const KEEP_LINES = 200;

interface Props {
  readonly server: ServerView;
  readonly api: Api;
  readonly path: string;
}

interface Shown {
  readonly lines: readonly McpServerOutputLine[];
  /** Lines that came before those shown and are no longer kept. */
  readonly dropped: number;
}

export function ServerLogs({ server, api, path }: Props) {
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<Shown>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    if (!open) return;
    let stopped = false;
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      const result = await api.call<McpServerOutput>('GET', `${path}/output?after=${last}`);
      if (stopped) return;
      if (result.ok) {
        setProblem(undefined);
        const output = result.value;
        last = output.last;
        setShown((before) => more(before, output));
      } else {
        setProblem(result.error.message);
      }
      timer = setTimeout(read, POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [open, api, path]);

  return (
    <details class="logs" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Output (log messages and stderr)</summary>
      {problem !== undefined && (
        <p class="problem" role="alert">
          {serverText(problem)}
        </p>
      )}
      {shown === undefined && problem === undefined && <p role="status">Reading…</p>}
      {shown !== undefined && shown.lines.length === 0 && (
        <p class="empty">
          {server.name} has written nothing yet: no log message, nothing on stderr.
        </p>
      )}
      {shown !== undefined && shown.lines.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, and a keyboard must reach it to scroll it (WCAG 2.1.1).
        <section class="tail" aria-label={`output of ${server.name}`} tabIndex={0}>
          {shown.dropped > 0 && (
            <p class="hint">
              {shown.dropped} older {shown.dropped === 1 ? 'line is' : 'lines are'} no longer kept.
            </p>
          )}
          <ol>
            {shown.lines.map((line) => (
              <OutputLine key={line.seq} line={line} />
            ))}
          </ol>
        </section>
      )}
    </details>
  );
}

function OutputLine({ line }: { readonly line: McpServerOutputLine }) {
  const time = new Date(line.at).toLocaleTimeString();
  switch (line.stream) {
    case 'log':
      return (
        <li data-stream="log" data-level={line.level}>
          <span class="when">{time}</span> <span class="level">{line.level}</span>
          {line.logger !== undefined && <span class="logger"> {serverText(line.logger)}</span>}{' '}
          <span class="text">{serverText(line.text)}</span>
        </li>
      );
    case 'stderr':
      return (
        <li data-stream="stderr">
          <span class="when">{time}</span> <span class="level">stderr</span>{' '}
          <span class="text">{stderrText(line.text)}</span>
        </li>
      );
  }
}

/** What was shown, and the lines newer than it, within KEEP_LINES. */
function more(before: Shown | undefined, output: McpServerOutput): Shown {
  const lines = [...(before?.lines ?? []), ...output.lines];
  const cut = Math.max(0, lines.length - KEEP_LINES);
  return {
    lines: lines.slice(cut),
    dropped: (before?.dropped ?? 0) + output.dropped + cut,
  };
}
