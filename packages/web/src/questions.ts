// The servers' questions waiting for a person (README "Servers that ask you"): `ask` is the
// runtime's Elicit, each question it is given waits here until a page answers it, and every open
// page is shown it by the live view. A question is shown, never an answer: what a person typed
// goes to the server that asked and is kept nowhere here.
//
// The first answer wins; a second (another page's, a second click) is told it came too late. A
// question whose request ended, or whose time ran out, goes away when its signal is aborted, and
// the pages' dialogs close with it. A page's own tool call is linked to its questions (`linkCall`),
// so the dialog can stop that call (the call's "Stop", which cancels the question too).
import { randomUUID } from 'node:crypto';
import { checkAnswer, type FieldProblem } from '@epoch-agent/plugin-mcp/elicitation';
import type {
  ElicitationAnswer,
  ElicitationQuestion,
  ElicitationValue,
  ToolContext,
} from '@epoch-agent/protocol';
import type { QuestionView } from './question-types.js';

/** How an answer given to `answer()` was taken. */
export type AnswerOutcome =
  | { readonly kind: 'taken' }
  /** The page's id names no question this launch asked (or one forgotten long since). */
  | { readonly kind: 'unknown' }
  /** Answered already, by this page or another: the first answer went to `server`. */
  | { readonly kind: 'answered'; readonly server: string }
  /** The request it belonged to ended, or its time ran out: nobody waits for an answer. */
  | { readonly kind: 'gone'; readonly server: string }
  /** The answer does not fit the question; the question still waits. */
  | {
      readonly kind: 'invalid';
      readonly server: string;
      readonly problem: string;
      readonly fields?: readonly FieldProblem[];
    };

interface Pending {
  readonly view: QuestionView;
  readonly question: ElicitationQuestion;
  readonly settle: (answer: ElicitationAnswer) => void;
}

// Ids of questions no longer pending, so a late answer is told why: bounded, the oldest forgotten.
const ENDED_KEPT = 500;

export class PendingQuestions {
  readonly #pending = new Map<string, Pending>();
  readonly #ended = new Map<
    string,
    { readonly kind: 'answered' | 'gone'; readonly server: string }
  >();
  readonly #calls = new WeakMap<ToolContext, string>();
  readonly #onChange: () => void;
  #closed = false;

  /** `onChange`: a question came or went (the live view is sent again). */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** The Elicit given to the runtime: resolves with the first page's answer. */
  readonly ask = (question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer> =>
    new Promise<ElicitationAnswer>((resolve) => {
      const id = randomUUID();
      const end = (how: 'answered' | 'gone', answer: ElicitationAnswer) => {
        if (!this.#pending.delete(id)) return;
        signal.removeEventListener('abort', gone);
        this.#remember(id, { kind: how, server: question.server });
        resolve(answer);
        this.#onChange();
      };
      const gone = () => end('gone', { action: 'cancel' });
      if (signal.aborted || this.#closed) return resolve({ action: 'cancel' });
      const call = question.during?.context && this.#calls.get(question.during.context);
      this.#pending.set(id, {
        view: viewOf(id, question, call),
        question,
        settle: (answer) => end('answered', answer),
      });
      signal.addEventListener('abort', gone, { once: true });
      this.#onChange();
    });

  /** The questions waiting, oldest first: for the live view. */
  views(): readonly QuestionView[] {
    return [...this.#pending.values()].map(({ view }) => view);
  }

  /**
   * Links a tool call the page runs (its ToolContext) to the page's id for it: a question asked
   * during that call names it, so the page that runs it can offer to stop it.
   */
  linkCall(context: ToolContext, call: string): void {
    this.#calls.set(context, call);
  }

  /** Gives question `id` the answer `body` (as a page sent it), checked against the question. */
  answer(id: string, body: unknown): AnswerOutcome {
    const pending = this.#pending.get(id);
    if (pending === undefined) return this.#ended.get(id) ?? { kind: 'unknown' };
    const read = answerOf(pending.question, body);
    if ('problem' in read) return { kind: 'invalid', server: pending.question.server, ...read };
    pending.settle(read);
    return { kind: 'taken' };
  }

  /** epoch web stops: every question still open is answered `cancel` (nobody is left to ask). */
  close(): void {
    this.#closed = true;
    for (const { settle } of [...this.#pending.values()]) settle({ action: 'cancel' });
  }

  #remember(
    id: string,
    ended: { readonly kind: 'answered' | 'gone'; readonly server: string },
  ): void {
    this.#ended.set(id, ended);
    for (const old of this.#ended.keys()) {
      if (this.#ended.size <= ENDED_KEPT) break;
      this.#ended.delete(old);
    }
  }
}

/** What the pages are shown of a question: never the call's ToolContext, which is the host's. */
function viewOf(id: string, question: ElicitationQuestion, call: string | undefined): QuestionView {
  const { server, source, during, running, message } = question;
  const common = {
    id,
    server,
    source,
    ...(during === undefined
      ? {}
      : { during: { kind: during.kind, name: during.name, inferred: during.inferred } }),
    ...(running === undefined ? {} : { running }),
    message,
    since: Date.now(),
    ...(call === undefined ? {} : { call }),
  };
  return question.mode === 'form'
    ? { ...common, mode: 'form', fields: question.fields }
    : { ...common, mode: 'url', url: question.url, origin: question.origin };
}

type Read =
  | ElicitationAnswer
  | { readonly problem: string; readonly fields?: readonly FieldProblem[] };

/**
 * The answer in `body` (`{ "answer": { "action": …, "content"?: … } }`) for `question`: a form's
 * content checked as the client checks it before sending (defaults filled in), a URL question's
 * accept without content. A problem never quotes a value: a field may be a secret.
 */
function answerOf(question: ElicitationQuestion, body: unknown): Read {
  const answer = isObject(body) ? body.answer : undefined;
  const action = isObject(answer) ? answer.action : undefined;
  if (!isObject(answer) || (action !== 'accept' && action !== 'decline' && action !== 'cancel')) {
    return {
      problem:
        'give { "answer": { "action": "accept" | "decline" | "cancel" } }, with the form\'s "content" for an accept',
    };
  }
  const { content } = answer;
  if (action !== 'accept' || question.mode === 'url') {
    if (content !== undefined) {
      return {
        problem: `a ${action === 'accept' ? "URL question's accept" : action} carries no "content"`,
      };
    }
    return { action };
  }
  if (!isObject(content)) {
    return { problem: 'an accepted form carries its "content": one JSON object of its fields' };
  }
  const checked = checkAnswer(question.fields, content);
  if (!checked.ok) {
    return {
      problem: checked.problems.map(({ field, problem }) => `"${field}" ${problem}`).join('; '),
      fields: checked.problems,
    };
  }
  return { action, content: checked.content as { readonly [name: string]: ElicitationValue } };
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
