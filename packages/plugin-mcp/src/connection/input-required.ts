// A request that a 2026-era server may answer with input_required (tools/call, resources/read,
// prompts/get): the server wants elicitation, roots or sampling first, then the same request again.
// epoch declares no elicitation or sampling — a server asking things of a person or a model needs a
// permission story first, and there is none — so it answers only what it can answer honestly and
// stops there:
//
//   elicitation/create      { action: 'cancel' }: nobody was asked (`decline` would say the user said no)
//   roots/list              the roots the host gave (roots.ts), or { roots: [] }: none were given
//                           (either is named in the error if the server asks again)
//   sampling/createMessage  no honest answer (a message our model never wrote): the request ends
//                           at once with `input_required`, nothing more is sent
//
// The request is sent again at most once, as a new request (the SDK gives it a new JSON-RPC id),
// with those answers and the server's requestState echoed byte for byte (none when it sent none);
// a server that asks again ends it with the same error, never a loop. The retry's fields are made
// for that one retry and kept nowhere else, so no other request can carry them. Both legs share one
// deadline: the retry gets what is left of the request's timeout.
import {
  type InputRequiredResult,
  isInputRequiredResult,
  type RequestOptions,
} from '@modelcontextprotocol/client';
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

export async function withInputAnswered<T>(
  target: InputTarget,
  options: RequestOptions,
  send: InputLeg<T>,
  roots: McpRoots | undefined,
): Promise<T> {
  const started = Date.now();
  const first = await send(undefined, options);
  if (!isInputRequiredResult(first)) return first as T;
  const { retry, answered } = await retryOf(first, target, roots);
  const second = await send(retry, whatIsLeft(options, started));
  if (isInputRequiredResult(second)) {
    const asked = Object.values(second.inputRequests ?? {}).map(methodOf);
    throw inputAskedAgain(target, asked, answered);
  }
  return second as T;
}

async function retryOf(
  asked: InputRequiredResult,
  target: InputTarget,
  roots: McpRoots | undefined,
): Promise<{ retry: InputRetry; answered: InputAnswer[] }> {
  const requests = Object.entries(asked.inputRequests ?? {});
  const answers = await Promise.all(
    requests.map(async ([key, request]) => {
      const { response, answer } = await answerTo(methodOf(request), target, roots);
      return { key, response, answer };
    }),
  );
  const retry = {
    ...(requests.length > 0
      ? { inputResponses: Object.fromEntries(answers.map(({ key, response }) => [key, response])) }
      : {}),
    // Only when the server sent one: a retry must not carry state the server never gave.
    ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}),
  };
  return { retry, answered: answers.map(({ answer }) => answer) };
}

/** The response to one input request, and what it was, for the message if the server asks again. */
async function answerTo(
  method: string,
  target: InputTarget,
  roots: McpRoots | undefined,
): Promise<{ response: unknown; answer: InputAnswer }> {
  switch (method) {
    case 'elicitation/create':
      return { response: { action: 'cancel' }, answer: { method } };
    case 'roots/list': {
      const given = roots === undefined ? [] : await rootsOnTheWire(roots);
      return {
        response: { roots: given },
        answer: { method, roots: given.map(({ uri }) => uri) },
      };
    }
    default:
      throw inputNotSupported(target, method);
  }
}

function methodOf(request: unknown): string {
  const method = (request as { readonly method?: unknown } | null)?.method;
  return typeof method === 'string' ? method : String(method);
}

/**
 * The request's options with what is left of its timeout, never a fresh one. A tools/call's
 * timeout is restarted by progress instead (request-options.ts): the retry is a new wait for a
 * sign of life, and the call's total limit, on its signal, bounds both legs.
 */
function whatIsLeft(options: RequestOptions, started: number): RequestOptions {
  if (options.timeout === undefined || options.resetTimeoutOnProgress === true) return options;
  return { ...options, timeout: Math.max(1, options.timeout - (Date.now() - started)) };
}
