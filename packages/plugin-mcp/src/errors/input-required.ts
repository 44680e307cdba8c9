// What a person or model reads when a 2026-era server wanted input that epoch does not give before
// it would answer: the server, the tool (or resource, or prompt), the feature, and that epoch does
// not support it. One code, `input_required`, for the three ways it shows: the server asked for
// it in an input_required result (connection/input-required.ts decides when that cannot be
// answered), asked again after one answer, or refused the request up front because epoch declares
// no such capability (-32021, the spec's way for a server that must not ask). Sending the same
// request again meets the same question.
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

/**
 * The server was answered once (an elicitation cancelled, as nobody was asked; no roots) and
 * asked again. `methods`: what it asked for the second time; none when it only sent its state.
 */
export function inputAskedAgain(target: InputTarget, methods: readonly string[]): McpError {
  const wanted =
    methods.length === 0
      ? 'to be asked once more with its request state'
      : `again for ${[...new Set(methods)].map(requested).join(' and ')}`;
  return made(
    target,
    `${prefix(target)} asked ${wanted} after epoch had answered it once (an elicitation is cancelled, as nobody is asked; roots are none); epoch does not support more than that, so the request was ended without an answer.`,
  );
}

/** The server refused the request because epoch does not declare `capabilities` (-32021). */
export function capabilitiesMissing(
  target: InputTarget,
  capabilities: readonly string[],
  cause: unknown,
): McpError {
  const features = capabilities.map((name) => FEATURES[name] ?? `"${name}"`).join(' and ');
  return made(
    target,
    `${prefix(target)} needs ${features || 'a client capability'} from the client, which epoch does not support; the server refused the request without running it.`,
    cause,
  );
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
