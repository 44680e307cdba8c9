// What a person or model reads when a server wanted input that epoch did not give before it would
// answer: the server, the tool (or resource, or prompt), the feature, and what is true of it: epoch
// gives no sampling, asks a person a server's question only when someone can be asked, and gives
// roots only when the host gave some. One code, `input_required`, for the three ways a 2026-era
// server shows it: it asked for input epoch cannot give in an input_required result
// (connection/input-required.ts decides), asked again after one answer (what that answer was is
// said, never a value the person gave), or refused the request with -32021 because the request did
// not declare the capability (the spec's way for a server that must not ask; the server may have
// run part of the work first, so nothing is claimed about that). And in either era: a request that
// failed after its server's question could not be put to anyone says so, whatever its code.
import type { ReplyReason } from '../elicitation/ask.js';
import { assertNever } from '../types.js';
import { McpError } from './mcp-error.js';

/** The request that needed the input. */
export interface InputTarget {
  readonly server: string;
  /** The MCP method: tools/call, resources/read or prompts/get (the requests that may ask). */
  readonly method: string;
  /** The tool's raw name, the resource's uri or the prompt's name, when known. */
  readonly name?: string | undefined;
}

/** Each client feature as a reader who does not know the capability names understands it. */
const FEATURES: Readonly<Record<string, string>> = {
  sampling: "sampling (a message written by epoch's model for the server)",
  elicitation: 'elicitation (a question put to the user)',
  roots: 'roots (the folders the user shares with servers)',
};

/** The capability behind each input request a server can embed. */
const CAPABILITY_OF: Readonly<Record<string, string>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/** The server asked for something epoch cannot answer honestly (sampling, or a method it does not know). */
export function inputNotSupported(target: InputTarget, method: string): McpError {
  return made(
    target,
    `${prefix(target)} asked for ${requested(method)} before it would answer; epoch does not support that, so the request was ended without an answer.`,
  );
}

/** What epoch answered a server's first input request with: told again when the server asks again. */
export type InputAnswer =
  /** The answer's action and why it was that (ask.ts), never what the person typed. */
  | {
      readonly method: 'elicitation/create';
      readonly action: 'accept' | 'decline' | 'cancel';
      readonly reason: ReplyReason;
    }
  /** The roots sent, as URIs: none when the host gave none. */
  | { readonly method: 'roots/list'; readonly roots: readonly string[] };

/** How many roots a message names before it says how many more there were. */
const ROOTS_NAMED = 5;

/**
 * The server was answered once (`answered`: an elicitation cancelled, as nobody was asked; the
 * roots given, or none) and asked again. `methods`: what it asked for the second time; none when it
 * only sent its state.
 */
export function inputAskedAgain(
  target: InputTarget,
  methods: readonly string[],
  answered: readonly InputAnswer[],
): McpError {
  const wanted =
    methods.length === 0
      ? 'to be asked once more with its request state'
      : `again for ${[...new Set(methods)].map(requested).join(' and ')}`;
  const told =
    answered.length === 0 ? 'its request state sent back' : answered.map(answerText).join('; ');
  return made(
    target,
    `${prefix(target)} asked ${wanted} after epoch had answered it once (${told}); epoch answers once only, so the request was ended without an answer.`,
  );
}

function answerText(answer: InputAnswer): string {
  switch (answer.method) {
    case 'elicitation/create':
      return `elicitation: ${REPLIED[answer.reason](answer.action)}`;
    case 'roots/list': {
      const { roots } = answer;
      if (roots.length === 0) return 'roots: none, as none were given';
      const more = roots.length - ROOTS_NAMED;
      const named = roots.slice(0, ROOTS_NAMED).join(', ');
      return `roots: ${named}${more > 0 ? ` and ${more} more` : ''}`;
    }
    default:
      return assertNever(answer, 'input answer');
  }
}

/** How an answer to a question came about, in words that name no value. */
const REPLIED: Readonly<Record<ReplyReason, (action: string) => string>> = {
  person: (action) => `${ACTIONS[action] ?? action} by the person asked`,
  setting: () => 'declined, as its "elicitation" setting is "decline"',
  nobody: () => 'cancelled, as nobody can be asked here',
  limit: () => 'cancelled, as the request had asked its most questions',
  time: () => 'cancelled, as nobody answered in time',
  ended: () => 'cancelled, as the request was ending',
  unshown: () => 'cancelled, as it was not a question epoch can show',
  unfit: () => 'cancelled, as the answer did not fit the form',
  failed: () => 'cancelled, as asking failed',
};

const ACTIONS: Readonly<Record<string, string>> = {
  accept: 'accepted',
  decline: 'declined',
  cancel: 'cancelled',
};

/**
 * `error` with a sentence more when its request's server asked a question that nobody could be
 * asked (no front end or host to ask: `replies` of its questions): the answer `cancel` may be why
 * it failed. `error` itself otherwise.
 */
export function nobodyCouldAnswer(error: McpError, replies: readonly ReplyReason[]): McpError {
  const unasked = replies.filter((reason) => reason === 'nobody').length;
  if (unasked === 0) return error;
  const questions = unasked === 1 ? 'a question' : `${unasked} questions`;
  return new McpError(
    error.code,
    `${error.message} The server had asked ${questions} during it, and nobody could answer: nobody can be asked here, so epoch answered "cancel".`,
    { server: error.server, tool: error.tool, cause: error.cause },
  );
}

/** Which client capabilities a request declared: those epoch declares only when the host gave them. */
export interface DeclaredCapabilities {
  /** The host gave roots. */
  readonly roots: boolean;
  /** The host gave someone to ask (`elicit`). */
  readonly elicitation: boolean;
}

/** The server refused the request with -32021, naming `capabilities` the request did not declare. */
export function capabilitiesMissing(
  target: InputTarget,
  capabilities: readonly string[],
  declared: DeclaredCapabilities,
  cause: unknown,
): McpError {
  const needs = capabilities.map((name) => missingText(name, declared)).join('; and ');
  const fix =
    capabilities.includes('roots') && !declared.roots
      ? ' Give it roots (the directories it may work in) and send it again.'
      : '';
  return made(
    target,
    `${prefix(target)} needs ${needs || 'a client capability'}; the server answered with error -32021 (a required client capability is missing) instead of a result.${fix}`,
    cause,
  );
}

function missingText(capability: string, declared: DeclaredCapabilities): string {
  const feature = FEATURES[capability];
  if (feature === undefined) return `"${capability}" from the client, which epoch does not know`;
  switch (capability) {
    case 'roots':
      return declared.roots
        ? `${feature}, though epoch declared roots on this request (the host gave some)`
        : `${feature}, which epoch declares only when it is given some, and none were given`;
    case 'elicitation':
      return declared.elicitation
        ? `${feature}, though epoch declared elicitation on this request (someone can be asked)`
        : `${feature}, which epoch declares only when someone can be asked, and nobody can be asked here`;
    default:
      return `${feature} from the client, which epoch does not support`;
  }
}

function made(target: InputTarget, message: string, cause?: unknown): McpError {
  const tool = target.method === 'tools/call' ? target.name : undefined;
  return new McpError('input_required', message, { server: target.server, tool, cause });
}

function requested(method: string): string {
  const capability = CAPABILITY_OF[method];
  return capability === undefined
    ? `"${method}", which is not an input request MCP defines`
    : (FEATURES[capability] as string);
}

function prefix({ server, method, name }: InputTarget): string {
  const noun = NOUNS[method];
  const what = noun === undefined || name === undefined ? method : `${noun} "${name}"`;
  return `MCP server "${server}": ${what}`;
}

const NOUNS: Readonly<Record<string, string>> = {
  'tools/call': 'tool',
  'resources/read': 'resource',
  'prompts/get': 'prompt',
};
