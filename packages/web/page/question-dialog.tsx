// A server's question, put to the person in a modal dialog over the page (README "Servers that ask
// you"): which server asks, who configured it, the request it belongs to, the server's words, then
// the form to fill in (Accept, Decline, Cancel) or the page to visit, its origin large and whole
// (Open, Decline, Cancel). Every open page shows every question the live view carries, the oldest
// first; the first answer goes to the server and the others' dialogs close, as they do when the
// request ends. Escape is Cancel. Focus goes to the first field (to Cancel for a URL: Enter alone
// opens nothing) and back where it was once no question is left.
import { checkAnswer } from '@epoch-agent/plugin-mcp/elicitation';
import type { ElicitationAnswer, McpToolSource } from '@epoch-agent/protocol';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { QuestionAnswer, QuestionView } from '../src/question-types.js';
import type { Api } from './api.js';
import { BusyButton } from './busy-button.js';
import { runsCall, stopCall } from './page-calls.js';
import { contentOf, initialValues, QuestionField, type Values } from './question-fields.js';
import { launchText, serverText } from './text.js';

interface Props {
  readonly questions: readonly QuestionView[];
  readonly api: Api;
}

export function QuestionDialog({ questions, api }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Where focus was when the first question came: it goes back there when the last one goes.
  const before = useRef<Element | null>(null);
  // Answered here: gone from the dialog before the live view says so.
  const [done, setDone] = useState<ReadonlySet<string>>(new Set());
  const waiting = questions.filter(({ id }) => !done.has(id));
  const current = waiting[0];

  useLayoutEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (current !== undefined && !element.open) {
      before.current = document.activeElement;
      element.showModal();
    } else if (current === undefined && element.open) {
      element.close();
      const back = before.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      else document.getElementById('servers')?.focus();
    }
  }, [current]);

  const finish = (id: string) => setDone((old) => new Set(old).add(id));
  // Escape: the question is dismissed, which is `cancel`; the dialog closes when it is taken.
  const onCancel = (event: Event) => {
    event.preventDefault();
    if (current !== undefined) {
      void send(api, current, { action: 'cancel' }).then(() => finish(current.id));
    }
  };

  // Closed by the browser itself (a second Escape may close a dialog whatever the page says):
  // dismissed, as Escape is. Closed by the effect above, there is no question left.
  const onClose = () => {
    if (current !== undefined) {
      void send(api, current, { action: 'cancel' }).then(() => finish(current.id));
    }
  };

  return (
    <dialog
      ref={dialog}
      class="question-dialog"
      aria-labelledby="question-title"
      onCancel={onCancel}
      onClose={onClose}
    >
      {current !== undefined && (
        <Question
          key={current.id}
          question={current}
          more={waiting.length - 1}
          api={api}
          onDone={finish}
        />
      )}
    </dialog>
  );
}

interface QuestionProps {
  readonly question: QuestionView;
  /** How many more questions wait behind this one. */
  readonly more: number;
  readonly api: Api;
  readonly onDone: (id: string) => void;
}

function Question({ question, more, api, onDone }: QuestionProps) {
  const [values, setValues] = useState<Values>(() =>
    question.mode === 'form' ? initialValues(question.fields) : {},
  );
  const [problems, setProblems] = useState<{ readonly [field: string]: string }>({});
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const first = body.current?.querySelector<HTMLElement>('input, select');
    (question.mode === 'form' && first ? first : cancel.current)?.focus();
  }, []);

  const answer = async (given: ElicitationAnswer) => {
    if (busy) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const sent = await send(api, question, given);
      if (sent.ok) {
        // Nothing typed stays in the page once sent: a secret least of all.
        setValues({});
        onDone(question.id);
        return;
      }
      setProblems(Object.fromEntries((sent.fields ?? []).map((f) => [f.field, f.problem])));
      setProblem(sent.message);
      // Once the problems are drawn: the field at fault takes focus.
      requestAnimationFrame(() =>
        body.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
    } finally {
      setBusy(false);
    }
  };

  const accept = (event: Event) => {
    event.preventDefault();
    if (question.mode !== 'form') return;
    const content = contentOf(question.fields, values);
    // The client's own rules, before anything is sent: the server would get no answer that breaks them.
    const checked = checkAnswer(question.fields, content);
    if (!checked.ok) {
      setProblems(Object.fromEntries(checked.problems.map((f) => [f.field, f.problem])));
      setProblem(
        `Correct ${checked.problems.length === 1 ? 'the field' : 'the fields'} marked, then accept again.`,
      );
      requestAnimationFrame(() =>
        body.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    void answer({ action: 'accept', content });
  };

  const open = () => {
    if (question.mode !== 'url') return;
    // Exactly the URL shown, in a tab of its own that knows nothing of this page.
    window.open(question.url, '_blank', 'noopener,noreferrer');
    void answer({ action: 'accept' });
  };

  const stop = () => {
    if (!runsCall(question.call)) return;
    stopCall(question.call);
    onDone(question.id);
  };

  return (
    <form class="question-form" onSubmit={accept} noValidate aria-describedby="question-words">
      <h2 id="question-title">{serverText(question.server)} asks you</h2>
      <p class="question-who">{whoText(question)}</p>
      <p class="question-words" id="question-words">
        {serverText(question.message)}
      </p>
      <div ref={body} class="question-body">
        {question.mode === 'form' ? (
          question.fields.map((field) => (
            <QuestionField
              key={field.name}
              field={field}
              id={`question-${question.id}-${field.name}`}
              value={values[field.name]}
              problem={problems[field.name]}
              onChange={(value) => setValues((old) => ({ ...old, [field.name]: value }))}
            />
          ))
        ) : (
          <>
            <p class="question-origin">{launchText(question.origin)}</p>
            <p class="question-url">
              Open goes to exactly this address, in a new tab, adding nothing of epoch's:{' '}
              <code>{launchText(question.url)}</code>
            </p>
          </>
        )}
      </div>
      {problem !== undefined && (
        <p class="problem" role="alert">
          {serverText(problem)}
        </p>
      )}
      <div class="import-actions">
        {question.mode === 'form' ? (
          <BusyButton type="submit" class="primary" busy={busy}>
            Accept
          </BusyButton>
        ) : (
          <BusyButton class="primary" busy={busy} onClick={open}>
            Open {launchText(question.origin)}
          </BusyButton>
        )}
        <BusyButton busy={busy} onClick={() => void answer({ action: 'decline' })}>
          Decline
        </BusyButton>
        <button type="button" ref={cancel} onClick={() => void answer({ action: 'cancel' })}>
          Cancel
        </button>
        {runsCall(question.call) && (
          <button type="button" onClick={stop}>
            Stop the call
          </button>
        )}
      </div>
      <p class="hint">
        Decline tells the server you said no; Cancel dismisses the question
        {runsCall(question.call) ? ', and Stop the call ends the call it belongs to' : ''}.
        {more > 0 &&
          ` ${more} more ${more === 1 ? 'question waits' : 'questions wait'} after this one.`}
      </p>
    </form>
  );
}

const SOURCE_WORDS: Record<McpToolSource, string> = {
  user: 'configured in your mcp.json',
  project: "configured by the project's .epoch/mcp.json",
  plugin: 'brought by a plugin',
  host: 'brought by the application that embeds epoch',
};

const KIND_WORDS: Record<NonNullable<QuestionView['during']>['kind'], string> = {
  tool: 'a call of its tool',
  resource: 'a read of its resource',
  prompt: 'a get of its prompt',
};

/** `Server "files", configured in your mcp.json, asks during a call of its tool "delete".` */
function whoText({ server, source, during, running }: QuestionView): string {
  const who = `Server "${serverText(server)}", ${SOURCE_WORDS[source]}, asks`;
  if (during !== undefined) {
    const what = `${who} during ${KIND_WORDS[during.kind]} "${serverText(during.name)}"`;
    // A 2025-era server's question names no request: this was the one it was running.
    return during.inferred ? `${what} (the one request it was running).` : `${what}.`;
  }
  return running === undefined
    ? `${who} outside any request.`
    : `${who} while ${running} of its requests run: which one asks, it does not say.`;
}

type Sent =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly message: string;
      readonly fields?: readonly { readonly field: string; readonly problem: string }[];
    };

/**
 * POST the answer. Taken, or not wanted any more (answered on another page, the request ended):
 * either way this page is done with it. Refused: why, each field's problem too.
 */
async function send(api: Api, question: QuestionView, answer: ElicitationAnswer): Promise<Sent> {
  const body: QuestionAnswer = { answer };
  const result = await api.call<object>('POST', `/api/mcp/questions/${question.id}`, body);
  if (result.ok || result.status === 409) return { ok: true };
  return {
    ok: false,
    message: result.error.message,
    ...(result.error.fieldProblems === undefined ? {} : { fields: result.error.fieldProblems }),
  };
}
