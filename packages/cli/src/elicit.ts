// A server's questions (MCP elicitation) put to the person at the terminal: the `Elicit` of `epoch
// mcp call`. Each question names the server, who configured it and the request it belongs to, and
// shows the server's words as a terminal may show them (visible escapes, never run); then a form is
// filled in field by field (elicit-fields.ts) and a page is opened only after a yes. Only the person
// answers: nothing here accepts on their behalf, `--yes` included. One question at a time, and the
// lines drawn on the terminal (a call's progress) are kept off it while a question is there.
import { visibleText } from '@epoch-agent/infra';
import type {
  Elicit,
  ElicitationAnswer,
  ElicitationDuring,
  ElicitationForm,
  ElicitationQuestion,
  ElicitationUrl,
  ElicitationValue,
} from '@epoch-agent/protocol';
import { saidYes } from './ask.js';
import { askField, type ReadLine } from './elicit-fields.js';
import type { CliIo } from './io.js';
import { shownError, shownLine } from './render/server-text.js';

/** Keeps what it draws off the terminal while `task` runs (progress.ts). */
export type Hold = <T>(task: () => Promise<T>) => Promise<T>;

export interface QuestionAsker {
  readonly elicit: Elicit;
  /** Keeps the lines `hold` draws off the terminal while a question is on it, until undone. */
  readonly pause: (hold: Hold) => () => void;
}

const CANCEL: ElicitationAnswer = { action: 'cancel' };

/** The asker of a terminal: `ask` is the io's (present only when stdin and stderr are terminals). */
export function questionAsker(io: CliIo, ask: NonNullable<CliIo['ask']>): QuestionAsker {
  const holds = new Set<Hold>();
  // Questions that come together (two requests, two servers) are asked one after the other.
  let turn: Promise<unknown> = Promise.resolve();
  const elicit: Elicit = (question, signal) => {
    const answer = turn.then(() => {
      if (signal.aborted || io.signal.aborted) return CANCEL;
      const held = [...holds].reduce<() => Promise<ElicitationAnswer>>(
        (task, hold) => () => hold(task),
        () => put(io, ask, question, signal),
      );
      return held();
    });
    turn = answer.catch(() => undefined);
    return answer;
  };
  return {
    elicit,
    pause: (hold) => {
      holds.add(hold);
      return () => holds.delete(hold);
    },
  };
}

async function put(
  io: CliIo,
  ask: NonNullable<CliIo['ask']>,
  question: ElicitationQuestion,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  const read: ReadLine = (prompt, secret) => ask(prompt, { secret, signal });
  io.err(`\n${header(question)}`);
  const answer =
    question.mode === 'form' ? await fill(question, read, io.err) : await visit(question, read, io);
  const server = shownLine(question.server);
  // Ctrl-C: the command stops and says so itself.
  if (answer === undefined && io.signal.aborted) return CANCEL;
  if (answer === undefined && signal.aborted) {
    io.err(
      `The question of MCP server "${server}" is closed: its request ended or its time ran out, and it was answered "cancel".\n`,
    );
    return CANCEL;
  }
  // No answer otherwise is the end of input (Ctrl-D): the person dismissed the question.
  const given = answer ?? CANCEL;
  io.err(`${ANSWERED[given.action](server)}\n`);
  return given;
}

const ANSWERED: Record<ElicitationAnswer['action'], (server: string) => string> = {
  accept: (server) => `Sent to MCP server "${server}".`,
  decline: (server) => `Declined: MCP server "${server}" is told you said no.`,
  cancel: (server) => `No answer: MCP server "${server}" is told the question was cancelled.`,
};

/**
 * `MCP server "x" (user) asks you, during tool "y":` and the server's message, indented: who asks,
 * whose server it is, and for what, every time.
 */
function header(question: ElicitationQuestion): string {
  const what = question.mode === 'form' ? 'asks you' : 'asks you to visit a page';
  const message = question.message.trim();
  const said =
    message === ''
      ? ''
      : shownError(message)
          .split('\n')
          .map((line) => `  ${line}\n`)
          .join('');
  return `MCP server "${shownLine(question.server)}" (${question.source}) ${what}, ${context(question)}:\n${said}`;
}

const DURING: Record<ElicitationDuring['kind'], string> = {
  tool: 'tool',
  resource: 'the read of resource',
  prompt: 'prompt',
};

function context({ during, running }: ElicitationQuestion): string {
  if (during !== undefined) return `during ${DURING[during.kind]} "${shownLine(during.name)}"`;
  if (running !== undefined) {
    return `while ${running} of its requests run (it does not say for which one)`;
  }
  return 'outside any request';
}

/** A form: filled in and sent, declined, or undefined when it was not answered. */
async function fill(
  form: ElicitationForm,
  read: ReadLine,
  say: (text: string) => void,
): Promise<ElicitationAnswer | undefined> {
  const count = form.fields.length;
  const first = await read(
    // The server named again where the answer is typed: a long message may have scrolled the
    // header away, and its last lines could pose as another server's.
    count === 0
      ? `Accept "${form.server}"'s question? [y/N] `
      : `Fill in the form of "${form.server}" (${count === 1 ? '1 field' : `${count} fields`})? [y/N] `,
    false,
  );
  if (first === undefined) return undefined;
  if (!saidYes(first)) return { action: 'decline' };
  const content: { [name: string]: ElicitationValue } = {};
  for (const [index, field] of form.fields.entries()) {
    const answer = await askField(field, `${index + 1}/${count}`, read, say);
    if (answer.kind === 'closed') return undefined;
    if (answer.kind === 'value') content[field.name] = answer.value;
  }
  return { action: 'accept', content };
}

/**
 * A page: its origin shown whole on a line of its own (what a person must read before saying yes),
 * opened in the browser only on a yes. A browser that cannot be opened leaves the URL to copy.
 */
async function visit(
  page: ElicitationUrl,
  read: ReadLine,
  io: CliIo,
): Promise<ElicitationAnswer | undefined> {
  const origin = visibleText(page.origin);
  io.err(`  The page is on:\n\n    ${origin}\n\n`);
  const answer = await read(`Open ${origin} in your browser? [y/N] `, false);
  if (answer === undefined) return undefined;
  if (!saidYes(answer)) return { action: 'decline' };
  const opened =
    io.openUrl === undefined
      ? false
      : await io.openUrl(page.url).then(
          () => true,
          () => false,
        );
  if (!opened)
    io.err(`No browser could be opened: open this URL yourself:\n  ${shownLine(page.url)}\n`);
  return { action: 'accept' };
}
