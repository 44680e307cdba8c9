// A request that a 2026-era server may answer with input_required (tools/call, resources/read,
// prompts/get): the server wants elicitation, roots or sampling first, then the same request again.
// epoch answers what it can answer honestly and stops there:
//
//   elicitation/create      the person's answer (elicitation/ask.ts, one question after another,
//                           the request's `timeout` standing still meanwhile), or `cancel` when
//                           nobody can be asked; `decline` when the server's setting says so
//   roots/list              the roots the host gave (roots.ts), or { roots: [] }: none were given
//                           (either is named in the error if the server asks again)
//   sampling/createMessage  no honest answer (a message our model never wrote): the request ends
//                           at once with `input_required`, nothing more is sent
//
// The request is sent again at most once, as a new request (the SDK gives it a new JSON-RPC id),
// with those answers and the server's requestState echoed byte for byte (none when it sent none);
// a server that asks again ends it with the same error, never a loop. The retry's fields are made
// for that one retry and kept nowhere else, so no other request can carry them. Both legs share one
// RequestLimits (request-limits.ts): the server's answer was a sign of life, so the retry gets a
// whole `timeout`, and `max_total_timeout` bounds both.
import {
  type InputRequiredResult,
  isInputRequiredResult,
  type RequestOptions,
} from '@modelcontextprotocol/client';
import type { QuestionTarget } from '../elicitation/ask.js';
import type { ConnectionQuestions } from '../elicitation/questions.js';
import {
  type InputAnswer,
  type InputTarget,
  inputAskedAgain,
  inputNotSupported,
} from '../errors/input-required.js';
import { type McpRoots, rootsOnTheWire } from './roots.js';

/** What the retry adds to the request's params, and only to that retry. */
export interface InputRetry {
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  readonly requestState?: string;
}

/** Sends the request (with `retry`'s fields when there are some) and hands back its answer. */
export type InputLeg<T> = (
  retry: InputRetry | undefined,
  options: RequestOptions,
) => Promise<T | InputRequiredResult>;

/** Who answers what a server asks inside a request, and the request it is. */
export interface InputAnswerers {
  readonly roots: McpRoots | undefined;
  readonly questions: ConnectionQuestions;
  readonly request: QuestionTarget;
}

export async function withInputAnswered<T>(
  target: InputTarget,
  options: RequestOptions,
  send: InputLeg<T>,
  answerers: InputAnswerers,
): Promise<T> {
  const first = await send(undefined, options);
  if (!isInputRequiredResult(first)) return first as T;
  answerers.request.alive();
  const { retry, answered } = await retryOf(first, target, answerers);
  const second = await send(retry, options);
  if (isInputRequiredResult(second)) {
    const asked = Object.values(second.inputRequests ?? {}).map(methodOf);
    throw inputAskedAgain(target, asked, answered);
  }
  return second as T;
}

/** The answers to what `asked` asks (shared with a 2026 task's questions: tasks/task-calls.ts). */
export async function retryOf(
  asked: InputRequiredResult,
  target: InputTarget,
  answerers: InputAnswerers,
): Promise<{ retry: InputRetry; answered: InputAnswer[] }> {
  const requests = Object.entries(asked.inputRequests ?? {});
  // Anything epoch cannot answer ends the request before anyone is asked anything.
  for (const [, request] of requests) {
    if (!ANSWERED.has(methodOf(request))) throw inputNotSupported(target, methodOf(request));
  }
  // One after another: a person answers one question at a time.
  const answers: { key: string; response: unknown; answer: InputAnswer }[] = [];
  for (const [key, request] of requests) {
    const { response, answer } = await answerTo(request, answerers);
    answers.push({ key, response, answer });
  }
  const retry = {
    ...(requests.length > 0
      ? { inputResponses: Object.fromEntries(answers.map(({ key, response }) => [key, response])) }
      : {}),
    // Only when the server sent one: a retry must not carry state the server never gave.
    ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}),
  };
  return { retry, answered: answers.map(({ answer }) => answer) };
}

/** The input requests epoch answers; any other ends the request (inputNotSupported). */
const ANSWERED = new Set(['elicitation/create', 'roots/list']);

/** The response to one input request, and what it was, for the message if the server asks again. */
async function answerTo(
  request: unknown,
  { roots, questions, request: during }: InputAnswerers,
): Promise<{ response: unknown; answer: InputAnswer }> {
  const method = methodOf(request);
  if (method === 'elicitation/create') {
    const params = (request as { readonly params?: unknown }).params;
    const { reply, reason } = await questions.inside(during, params);
    return { response: reply, answer: { method, action: reply.action, reason } };
  }
  const given = roots === undefined ? [] : await rootsOnTheWire(roots);
  return {
    response: { roots: given },
    answer: { method: 'roots/list', roots: given.map(({ uri }) => uri) },
  };
}

function methodOf(request: unknown): string {
  const method = (request as { readonly method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : String(method);
}
