// "Review…" on the card of a server that waits for approval: a modal dialog that shows what it
// would run (LaunchDetails) and why it is asked, with Approve or Cancel. Nothing starts before
// Approve, which sends the launch shown (POST …/approve): a launch that changed since is refused
// there, and one that changes while the dialog is open is said here, not swapped in silently.
// Focus goes to Cancel when it opens (Enter alone approves nothing) and back where it was after.
import type { McpLaunch, McpServerStatus } from '@epoch-agent/runtime';
import { useRef, useState } from 'preact/hooks';
import type { ApprovedAnswer, ApproveRequest, ServerView } from '../src/api-types.js';
import type { Api } from './api.js';
import { useCardDialog } from './card-dialog.js';
import { LaunchDetails } from './launch-details.js';
import { serverText } from './text.js';

type Waiting = Extract<McpServerStatus, { readonly state: 'needsApproval' }>;

interface Props {
  readonly server: ServerView;
  readonly status: Waiting;
  readonly api: Api;
  /** The server's API path: `/api/mcp/<name>`. */
  readonly path: string;
}

export function ApprovalDialog({ server, status, api, path }: Props) {
  const { dialog, opener, show, answered, onClose } = useCardDialog();
  const cancel = useRef<HTMLButtonElement>(null);
  // What the dialog shows: the launch as it was when opened, until the person asks for the new one.
  const [shown, setShown] = useState<McpLaunch>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const changed = shown !== undefined && JSON.stringify(shown) !== JSON.stringify(status.launch);

  const open = () => {
    setShown(status.launch);
    setProblem(undefined);
    show();
    cancel.current?.focus();
  };
  const approve = async () => {
    if (busy || shown === undefined) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const body: ApproveRequest = { launch: shown };
      const result = await api.call<ApprovedAnswer>('POST', `${path}/approve`, body);
      if (!result.ok) {
        setProblem(result.error.message);
        return;
      }
      // Focus to the card: the button goes away with the state.
      answered();
    } finally {
      setBusy(false);
    }
  };
  const showNow = () => {
    setShown(status.launch);
    // Its button goes with the notice: focus waits on Cancel, as when the dialog opened.
    cancel.current?.focus();
  };

  const titleId = `approve-${server.name}-title`;
  return (
    <>
      <button type="button" class="primary" onClick={open} ref={opener}>
        Review…
      </button>
      <dialog
        ref={dialog}
        class="approval-dialog"
        aria-labelledby={titleId}
        onClose={onClose}
        data-server={server.name}
      >
        <h2 id={titleId}>Start {server.name}?</h2>
        <p>{reasonText(server, status)}</p>
        {shown !== undefined && <LaunchDetails launch={shown} />}
        {changed && (
          <div class="problem" role="alert">
            <p>What it would run changed while this was open.</p>
            <button type="button" onClick={showNow}>
              Show what it runs now
            </button>
          </div>
        )}
        {problem !== undefined && (
          <p class="problem" role="alert">
            {serverText(problem)}
          </p>
        )}
        <div class="import-actions">
          <button
            type="button"
            class="primary"
            onClick={approve}
            aria-disabled={busy}
            disabled={changed}
          >
            {busy ? 'Starting…' : 'Approve and start'}
          </button>
          <button type="button" onClick={() => dialog.current?.close()} ref={cancel}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}

/** Why it is asked: never approved, or approved when it ran something else. */
const REASONS: Record<Waiting['reason'], string> = {
  new: 'epoch has not started this server before: it appeared where epoch reads servers, and nothing of it runs until you approve what it would run.',
  changed:
    'What this server runs changed since it was approved: approve it again only if you expected this change.',
};

function reasonText(server: ServerView, status: Waiting): string {
  const where =
    server.at === undefined ? '' : ` It is written at ${server.at.file}:${server.at.line}.`;
  return `${REASONS[status.reason]}${where}`;
}
