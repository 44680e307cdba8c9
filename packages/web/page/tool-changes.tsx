// "3 tools changed" on the card of a server whose tools changed, or are new, since its tools were
// approved (README "Pinned tools"): the model is not offered them until a person approves them.
// The badge opens a modal dialog with each of them, new or changed, and its definition before and
// after (DefinitionDiff); "Approve changes" approves them all, a tool's own button that one, Cancel
// nothing. What is approved is what the dialog shows: the approval carries the hash of each
// definition shown and the server refuses one that changed since; tools that change while the
// dialog is open are said here, not swapped in silently. Focus goes to Cancel when it opens (Enter
// alone approves nothing) and back to the badge after; once none is left the badge goes with the
// live view, and focus waits on the card.
import { useEffect, useRef, useState } from 'preact/hooks';
import type {
  ApiErrorBody,
  ApproveToolsRequest,
  ServerView,
  ToolChanges,
  ToolsApproved,
  WithheldToolView,
} from '../src/api-types.js';
import type { Api } from './api.js';
import { useCardDialog } from './card-dialog.js';
import { DefinitionDiff } from './definition-diff.js';
import { serverText } from './text.js';

interface Props {
  readonly server: ServerView;
  /** How many of its tools are withheld now (its status's `toolsWithheld`). */
  readonly count: number;
  readonly api: Api;
  /** The server's API path: `/api/mcp/<name>`. */
  readonly path: string;
}

/** What is being approved: every tool shown, or one. */
type Approving = { readonly all: true } | { readonly tool: string };

export function ToolChangesDialog({ server, count, api, path }: Props) {
  const { dialog, opener, show, answered, onClose } = useCardDialog();
  const cancel = useRef<HTMLButtonElement>(null);
  const [shown, setShown] = useState<ToolChanges>();
  const [problem, setProblem] = useState<ApiErrorBody['error']>();
  const [busy, setBusy] = useState<Approving>();
  // The count when an approval was asked, until the live view brings the count after it: till then
  // the count is older than what the dialog shows, not news.
  const [asked, setAsked] = useState<number>();
  useEffect(() => {
    if (asked !== undefined && asked !== count) setAsked(undefined);
  }, [asked, count]);
  // More withheld than shown (approving only lowers the count): the server changed its tools while
  // this was open. A tool changed again in place is caught by the server's refusal instead.
  const grown = shown !== undefined && count > shown.withheld.length && count !== asked;
  const changed = grown || problem?.code === 'tools_changed';

  const load = async () => {
    setProblem(undefined);
    const result = await api.call<ToolChanges>('GET', `${path}/tool-changes`);
    if (result.ok) setShown(result.value);
    else setProblem(result.error);
  };
  const open = async () => {
    setShown(undefined);
    show();
    cancel.current?.focus();
    await load();
  };
  const approve = async (approving: Approving) => {
    if (busy !== undefined || shown === undefined) return;
    setBusy(approving);
    setAsked(count);
    setProblem(undefined);
    try {
      // What the dialog shows, as it shows it: a tool that changed again since is refused.
      const chosen =
        'tool' in approving
          ? shown.withheld.filter((tool) => tool.name === approving.tool)
          : shown.withheld;
      const body: ApproveToolsRequest = { tools: chosen.map(({ name, hash }) => ({ name, hash })) };
      const result = await api.call<ToolsApproved>('POST', `${path}/approve-tools`, body);
      if (!result.ok) {
        setProblem(result.error);
        return;
      }
      if (result.value.status.toolsWithheld === 0) {
        // All approved: focus to the card; the badge goes away with the count.
        answered();
        return;
      }
      // Its button went with the tool: focus waits on Cancel, as when the dialog opened.
      await load();
      cancel.current?.focus();
    } finally {
      setBusy(undefined);
    }
  };
  const showNow = async () => {
    await load();
    // Its button goes with the notice.
    cancel.current?.focus();
  };

  const titleId = `tool-changes-${server.name}-title`;
  const none = shown !== undefined && shown.withheld.length === 0;
  return (
    <>
      <button type="button" class="tools-changed" onClick={open} ref={opener}>
        {count} {count === 1 ? 'tool' : 'tools'} changed
      </button>
      <dialog
        ref={dialog}
        class="approval-dialog tool-changes"
        aria-labelledby={titleId}
        onClose={onClose}
        data-server={server.name}
      >
        <h2 id={titleId}>Changed tools of {server.name}</h2>
        <p>
          These tools changed, or are new, since this server's tools were approved. What a tool's
          description and schema say is what the model reads before it uses the tool, so a change
          can make it do something else: the model is not offered them until you approve them.
          Approve only changes you expected.
        </p>
        {shown === undefined && problem === undefined && <p role="status">Reading its tools…</p>}
        {shown?.withheld.map((tool) => (
          <ToolChange
            key={tool.name}
            tool={tool}
            busy={busy}
            onApprove={() => approve({ tool: tool.name })}
          />
        ))}
        {none && <p class="empty">None of its tools is withheld now.</p>}
        {changed && (
          <div class="problem" role="alert">
            <p>Its tools changed while this was open.</p>
            <button type="button" onClick={showNow}>
              Show its tools as they are now
            </button>
          </div>
        )}
        {problem !== undefined && problem.code !== 'tools_changed' && (
          <p class="problem" role="alert">
            {serverText(problem.message)}
          </p>
        )}
        <div class="import-actions">
          <button
            type="button"
            class="primary"
            onClick={() => approve({ all: true })}
            aria-disabled={busy !== undefined}
            disabled={changed || shown === undefined || none}
          >
            {busy !== undefined && 'all' in busy ? 'Approving…' : 'Approve changes'}
          </button>
          <button type="button" onClick={() => dialog.current?.close()} ref={cancel}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}

const REASONS: Record<WithheldToolView['reason'], string> = {
  new: 'new tool',
  changed: 'changed',
};

interface ToolChangeProps {
  readonly tool: WithheldToolView;
  readonly busy: Approving | undefined;
  readonly onApprove: () => void;
}

function ToolChange({ tool, busy, onApprove }: ToolChangeProps) {
  const name = serverText(tool.name);
  return (
    <section
      class="tool-change"
      data-tool={tool.name}
      aria-label={`${name}, ${REASONS[tool.reason]}`}
    >
      <h3>
        <code>{name}</code> <span class={`change ${tool.reason}`}>{REASONS[tool.reason]}</span>
      </h3>
      <DefinitionDiff
        lines={tool.lines}
        label={
          tool.reason === 'new'
            ? `Definition of ${name}`
            : `Definition of ${name}, before and after`
        }
      />
      <button type="button" onClick={onApprove} aria-disabled={busy !== undefined}>
        {busy !== undefined && 'tool' in busy && busy.tool === tool.name
          ? 'Approving…'
          : `Approve ${name}`}
      </button>
    </section>
  );
}
