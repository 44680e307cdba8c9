// One question a server puts to the person, from its arrival to the answer the server gets, by the
// README's rules ("Servers that ask you"); both eras share it: a 2025 server's elicitation/create
// request and a question inside a 2026 server's input_required answer. epoch answers by itself
// only `decline` (the server's setting says so) and `cancel` (nobody can be asked, the limits, a
// question it cannot show, an answer that does not fit the form); everything else is a person's.
// No answer value is ever logged or put in a message: a warning names fields, never what was typed.
import { type Logger, messageOf } from '@epoch-agent/infra';
import type {
  Elicit,
  ElicitationAnswer,
  ElicitationDuring,
  ElicitationField,
  ElicitationQuestion,
  ElicitationValue,
} from '@epoch-agent/protocol';
import { type Clock, realClock } from '../connection/clock.js';
import { modelLine, modelText } from '../tools/model-text.js';
import type { McpElicitationSetting, McpServerSource } from '../types.js';
import { checkAnswer, formFields, urlOf } from './form.js';

/** Questions one request may ask; the next is answered `cancel` and the request goes on. */
export const QUESTIONS_PER_REQUEST = 5;
/** How long one question waits for its answer, then `cancel`. */
export const QUESTION_WAIT_MS = 10 * 60_000;
/** The longest message of a server a person is shown; past it, a note says how much was cut. */
const MESSAGE_MAX_CHARS = 4000;
/** The longest label of a field or an option: a few words, never a second message. */
const LABEL_MAX_CHARS = 256;
/** The longest account of why asking failed (an asker's error) in a warning. */
const ERROR_MAX_CHARS = 300;

/** What the server is sent back: MCP's ElicitResult. */
export type ElicitReply =
  | {
      readonly action: 'accept';
      readonly content?: { readonly [name: string]: ElicitationValue };
    }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/**
 * Why the server got the answer it got, for a message that names no value: `person` answered;
 * epoch answered for the server's `setting`, because `nobody` could be asked, the request's
 * `limit` of questions, the question's `time`, the request `ended` while asking, a question it
 * could not show (`unshown`), an accepted form that did not fit (`unfit`), or the asker `failed`.
 */
export type ReplyReason =
  | 'person'
  | 'setting'
  | 'nobody'
  | 'limit'
  | 'time'
  | 'ended'
  | 'unshown'
  | 'unfit'
  | 'failed';

export interface Replied {
  readonly reply: ElicitReply;
  readonly reason: ReplyReason;
}

/** Who asks, on whose behalf, and whom: one server's, the same for each of its questions. */
export interface QuestionAsker {
  readonly server: string;
  readonly source: McpServerSource;
  /** Read at each question: the user may change it while the server runs (McpClient.useElicitation). */
  readonly setting: () => McpElicitationSetting;
  /** Absent: nobody can be asked. */
  readonly elicit: Elicit | undefined;
  /** Passes the server's redaction policy. */
  readonly logger: Logger;
  /**
   * Teaches the server's redaction policy the values typed into its secret fields: a server that
   * echoes one in its stderr, a log message or an error has it blanked there, as a header's is.
   */
  readonly learn: (secrets: readonly string[]) => void;
  /** The question's time limit runs on it. Default: the real clock. */
  readonly clock?: Clock;
}

/** What counts a request's questions, so that it asks at most QUESTIONS_PER_REQUEST. */
export interface QuestionCounter {
  asked: number;
}

/** A request a question may belong to, while it runs. */
export interface QuestionTarget extends QuestionCounter {
  /** What the request is: the question names it. */
  readonly during: Omit<ElicitationDuring, 'inferred'>;
  /**
   * Aborted when the request is over (stopped by its caller or its limits, answered, failed): a
   * question of it is cancelled then.
   */
  readonly signal: AbortSignal;
  /** What the questions of this request were answered, and why: the words of its failure. */
  readonly replies: ReplyReason[];
  /** Stops the request's `timeout` while a person is asked; the function given back restarts it. */
  pause(): () => void;
  /** The server answered the request (with a question): its `timeout` starts again. */
  alive(): void;
}

/** One question as it came, and what it belongs to as far as the client can tell. */
export interface AskedQuestion {
  /** The elicitation/create params, as the server sent them. */
  readonly params: unknown;
  /** The requests it may belong to: one (known or inferred), several, or none. */
  readonly targets: readonly QuestionTarget[];
  /** True when `targets` is a guess: a 2025-era question names no request. */
  readonly inferred: boolean;
  /** Where the question is counted: its requests, or the count of questions outside any. */
  readonly counters: readonly QuestionCounter[];
  /** Aborted when the server no longer waits for the answer (it cancelled, the connection ended). */
  readonly signal?: AbortSignal;
}

/** The question to put, with a form's fields (none for a page to visit); or why it is not put. */
type Reading =
  | {
      readonly ok: true;
      readonly question: ElicitationQuestion;
      readonly fields: readonly ElicitationField[] | undefined;
    }
  | { readonly ok: false; readonly problem: string };

/** Asks `asked` of the person, or answers for them where the rules say so; never rejects. */
export async function ask(asker: QuestionAsker, asked: AskedQuestion): Promise<Replied> {
  const replied = await answer(asker, asked);
  for (const target of asked.targets) target.replies.push(replied.reason);
  return replied;
}

async function answer(asker: QuestionAsker, asked: AskedQuestion): Promise<Replied> {
  const { server, logger } = asker;
  const words = about(asker, asked);
  // Nobody to ask comes first: the server was not told it may ask, so it gets no word of a setting.
  if (asker.elicit === undefined) {
    logger.warn(`${words} was answered "cancel": nobody can be asked here.`, { server });
    return cancel('nobody');
  }
  if (asker.setting() === 'decline') {
    logger.info(`${words} was answered "decline" unasked: its setting is "decline".`, { server });
    return { reply: { action: 'decline' }, reason: 'setting' };
  }
  const over = asked.counters.find((counter) => counter.asked >= QUESTIONS_PER_REQUEST);
  if (over !== undefined) {
    logger.warn(
      `${words} was answered "cancel" without asking: a request may ask at most ${QUESTIONS_PER_REQUEST} questions.`,
      { server },
    );
    return cancel('limit');
  }
  for (const counter of asked.counters) counter.asked += 1;
  const reading = read(asker, asked);
  if (!reading.ok) {
    logger.warn(
      `${words} was answered "cancel" without asking: it is not a question epoch shows (${reading.problem}).`,
      { server },
    );
    return cancel('unshown');
  }
  return put(asker, asked, reading, words);
}

/** Puts the question to the person, within its time and its request's life. */
async function put(
  asker: QuestionAsker,
  asked: AskedQuestion,
  reading: Extract<Reading, { ok: true }>,
  words: string,
): Promise<Replied> {
  const { server, logger, clock = realClock } = asker;
  const elicit = asker.elicit as Elicit;
  const time = new AbortController();
  const timer = clock.later(QUESTION_WAIT_MS, () => time.abort(new Error('time')), false);
  const ended = whenAllEnd(asked);
  const signal = AbortSignal.any([time.signal, ...ended]);
  if (signal.aborted) {
    timer.cancel();
    return cancel('ended');
  }
  const resumes = asked.targets.map((target) => target.pause());
  try {
    const answer = await untilAborted(elicit(reading.question, signal), signal);
    if (answer === undefined) {
      const reason = time.signal.aborted ? 'time' : 'ended';
      if (reason === 'time') {
        logger.warn(
          `${words} was answered "cancel": nobody answered within ${QUESTION_WAIT_MS / 60_000} minutes.`,
          { server },
        );
      }
      return cancel(reason);
    }
    return checked(answer, reading.fields, words, asker);
  } catch (error) {
    logger.warn(`${words} was answered "cancel": asking failed: ${oneLine(messageOf(error))}`, {
      server,
    });
    return cancel('failed');
  } finally {
    timer.cancel();
    for (const resume of resumes) resume();
  }
}

/** The person's answer as the server gets it: an accepted form checked, its defaults filled. */
function checked(
  answer: ElicitationAnswer,
  fields: readonly ElicitationField[] | undefined,
  words: string,
  { logger, server, learn }: QuestionAsker,
): Replied {
  switch (answer?.action) {
    case 'decline':
      return { reply: { action: 'decline' }, reason: 'person' };
    case 'cancel':
      return cancel('person');
    case 'accept': {
      // A page to visit: the person said yes, and nothing of it comes back through epoch.
      if (fields === undefined) return { reply: { action: 'accept' }, reason: 'person' };
      const check = checkAnswer(fields, answer.content ?? {});
      if (check.ok) {
        learn(secretsOf(fields, check.content));
        return { reply: { action: 'accept', content: check.content }, reason: 'person' };
      }
      const named = check.problems.map(({ field, problem }) => `"${field}" ${problem}`);
      logger.warn(
        `${words} was answered "cancel": the answer given does not fit the form (${named.join('; ')}).`,
        { server },
      );
      return cancel('unfit');
    }
    default: {
      const said = 'the answer given is none of accept, decline or cancel';
      logger.warn(`${words} was answered "cancel": ${said}.`, { server });
      return cancel('failed');
    }
  }
}

/** The values of an answer's secret fields, as text (a PIN asked as a number too). */
function secretsOf(
  fields: readonly ElicitationField[],
  content: { readonly [name: string]: ElicitationValue },
): string[] {
  return fields.flatMap((field) => {
    const value = content[field.name];
    const secret = (field.kind === 'text' || field.kind === 'number') && field.secret;
    return secret && value !== undefined ? [String(value)] : [];
  });
}

function cancel(reason: ReplyReason): Replied {
  return { reply: { action: 'cancel' }, reason };
}

/** The question a front end is given, or why it is not one epoch shows. */
function read(asker: QuestionAsker, { params, targets, inferred }: AskedQuestion): Reading {
  const given = (typeof params === 'object' && params !== null ? params : {}) as {
    readonly mode?: unknown;
    readonly message?: unknown;
    readonly requestedSchema?: unknown;
    readonly url?: unknown;
  };
  const [only] = targets;
  const common = {
    server: asker.server,
    source: asker.source,
    during: targets.length === 1 && only !== undefined ? { ...only.during, inferred } : undefined,
    ...(targets.length > 1 ? { running: targets.length } : {}),
    message: modelText(
      typeof given.message === 'string' ? given.message : '',
      MESSAGE_MAX_CHARS,
      "the server's message",
    ),
  };
  const mode = given.mode ?? 'form';
  if (mode === 'url') {
    const url = urlOf(given.url);
    if (!url.ok) return { ok: false, problem: url.problem };
    return {
      ok: true,
      question: { ...common, mode: 'url', url: url.url, origin: url.origin },
      fields: undefined,
    };
  }
  if (mode !== 'form') return { ok: false, problem: `a question of mode ${JSON.stringify(mode)}` };
  const form = formFields(given.requestedSchema);
  if (!form.ok) return { ok: false, problem: form.problem };
  const fields = form.fields.map(shownField);
  return { ok: true, question: { ...common, mode: 'form', fields }, fields };
}

/**
 * A field with the server's words in it (its label, description and options' labels) cleaned as
 * its message is; its name and option values, which go back to the server, as they came.
 */
function shownField(field: ElicitationField): ElicitationField {
  const label = modelLine(field.label, LABEL_MAX_CHARS, 'the label');
  const description =
    field.description === undefined
      ? undefined
      : modelText(field.description, MESSAGE_MAX_CHARS, 'the description');
  const words = { label, ...(description === undefined ? {} : { description }) };
  if (field.kind !== 'choice' && field.kind !== 'choices') return { ...field, ...words };
  const options = field.options.map((option) => ({
    ...option,
    label: modelLine(option.label, LABEL_MAX_CHARS, 'the label'),
  }));
  return { ...field, ...words, options };
}

/** How a log line names the question: the server, and the request it belongs to. */
function about({ server }: QuestionAsker, { targets }: AskedQuestion): string {
  const [only] = targets;
  const during =
    targets.length === 0
      ? 'outside any request'
      : targets.length > 1 || only === undefined
        ? `while ${targets.length} of its requests ran`
        : `during ${only.during.kind} "${only.during.name}"`;
  return `MCP server "${server}" asked a question ${during}; it`;
}

/**
 * The signals whose abort ends the question: the server's own (it stopped waiting), and the
 * request's — of several that may be the asker, when every one of them has ended.
 */
function whenAllEnd({ signal, targets }: AskedQuestion): AbortSignal[] {
  const signals = signal === undefined ? [] : [signal];
  if (targets.length === 1) return [...signals, (targets[0] as QuestionTarget).signal];
  if (targets.length === 0) return signals;
  const all = new AbortController();
  const check = (): void => {
    if (targets.every((target) => target.signal.aborted)) all.abort(new Error('ended'));
  };
  for (const target of targets) target.signal.addEventListener('abort', check, { once: true });
  check();
  return [...signals, all.signal];
}

/** `promise`'s value, or undefined as soon as `signal` aborts (the question no longer matters). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function oneLine(text: string): string {
  return modelLine(text, ERROR_MAX_CHARS, 'the error');
}
