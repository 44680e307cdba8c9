// The switch that turns a server, or one of its tools, on or off: a checkbox with the switch role,
// named after what it turns, that writes the choice to mcp.json through the API (PUT …/enabled).
// The live view decides what it shows; while a change is on its way it shows the choice asked
// for, since the view that has it may come after the answer. The write says what the switch showed
// (`shown`), so a file changed since the view was drawn is refused rather than taken as asked.
// Never `disabled` while a change is on its way: a disabled control drops focus to <body>, where
// the next Space scrolls the page. It is aria-disabled and busy instead, and ignores clicks.
import { useEffect, useState } from 'preact/hooks';
import type { ChoiceRequest, ChoiceSet, ServerView } from '../src/api-types.js';
import type { Api } from './api.js';
import { serverText } from './text.js';

/** What came of a change, for the card or the tool to show beside the switch. */
export type ChoiceOutcome =
  | { readonly kind: 'saved'; readonly text: string }
  | { readonly kind: 'refused'; readonly message: string };

interface Props {
  readonly api: Api;
  /** The PUT …/enabled of the server or the tool. */
  readonly path: string;
  readonly server: ServerView;
  /** Whether what it turns is on in a view of the server. */
  readonly isOn: (server: ServerView) => boolean;
  /** Its accessible name: what it turns on or off (`Server words`, `Tool lookup of words`). */
  readonly label: string;
  readonly onOutcome: (outcome: ChoiceOutcome) => void;
  /** A change is asked for, before it is sent (the page keeps the row where it is). */
  readonly onAsk?: () => void;
}

export function ChoiceSwitch({ api, path, server, isOn, label, onOutcome, onAsk }: Props) {
  const on = isOn(server);
  const [wanted, setWanted] = useState<boolean>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (wanted === on) setWanted(undefined);
  }, [on, wanted]);
  const shown = wanted ?? on;

  const change = async () => {
    if (busy) return;
    onAsk?.();
    const enabled = !shown;
    setWanted(enabled);
    setBusy(true);
    try {
      const body: ChoiceRequest = { enabled, shown };
      const result = await api.call<ChoiceSet>('PUT', path, body);
      if (!result.ok) {
        setWanted(undefined);
        onOutcome({ kind: 'refused', message: result.error.message });
        return;
      }
      // Done, yet not as asked (a pattern keeps a tool off): the answer's view is the truth.
      if (isOn(result.value.server) !== enabled) setWanted(undefined);
      onOutcome({ kind: 'saved', text: savedText(result.value) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <label class="switch">
      <input
        type="checkbox"
        role="switch"
        aria-label={label}
        aria-checked={shown}
        checked={shown}
        aria-disabled={busy}
        aria-busy={busy}
        // A click while busy would flip the box with nothing sent: it is undone before it shows.
        onClick={(e) => {
          if (busy) e.preventDefault();
        }}
        onChange={change}
      />
      <span aria-hidden="true">{shown ? 'on' : 'off'}</span>
    </label>
  );
}

/** `Saved in /x/mcp.json, line 7: added "exclude_tools": ["lookup"].` or what was already so. */
function savedText({ file, line, changes, changed }: ChoiceSet): string {
  const what = changes.map((change) => change.text).join('; ');
  return serverText(changed ? `Saved in ${file}, line ${line}: ${what}.` : `${what}.`);
}
