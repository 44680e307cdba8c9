// What a person or model reads when a 2026-era server wanted input that epoch does not give
// before it would answer (connection/input-required.ts decides when): the server, the tool (or
// resource, or prompt), the feature it asked for, and that epoch does not support it. One code,
// `input_required`: sending the same request again meets the same question.
import { McpError } from './mcp-error.js';

/** The request a server answered with input_required. */
export interface InputTarget {
  readonly server: string;
  readonly method: 'tools/call' | 'resources/read' | 'prompts/get';
  /** The tool's raw name, the resource's uri or the prompt's name. */
  readonly name: string;
}

/** Each feature as a reader who does not know the method names understands it. */
const FEATURES: Readonly<Record<string, string>> = {
  'sampling/createMessage': "sampling (a message written by epoch's model for the server)",
  'elicitation/create': 'elicitation (a question put to the user)',
  'roots/list': 'roots (the folders the user shares with servers)',
};

/** The server asked for something epoch cannot answer honestly (sampling, or a method it does not know). */
export function inputNotSupported(target: InputTarget, method: string): McpError {
  const feature = FEATURES[method] ?? `"${method}", which is not an input request MCP defines`;
  return made(
    target,
    `${prefix(target)} asked for ${feature} before it would answer; epoch does not support that, so the request was ended without an answer.`,
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
      : `again for ${[...new Set(methods)].map((method) => FEATURES[method] ?? `"${method}"`).join(' and ')}`;
  return made(
    target,
    `${prefix(target)} asked ${wanted} after epoch had answered it once (an elicitation is cancelled, as nobody is asked; roots are none); epoch does not support more than that, so the request was ended without an answer.`,
  );
}

function made(target: InputTarget, message: string): McpError {
  const tool = target.method === 'tools/call' ? target.name : undefined;
  return new McpError('input_required', message, { server: target.server, tool });
}

function prefix(target: InputTarget): string {
  return `MCP server "${target.server}": ${noun(target)} "${target.name}"`;
}

function noun({ method }: InputTarget): string {
  switch (method) {
    case 'tools/call':
      return 'tool';
    case 'resources/read':
      return 'resource';
    case 'prompts/get':
      return 'prompt';
  }
}
