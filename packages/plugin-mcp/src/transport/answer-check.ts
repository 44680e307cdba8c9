// An answer from the server (a JSON-RPC message with an id and no method) whose envelope is not
// one the protocol allows — a `result` that is not an object, an `error` without an integer `code`
// or a string `message`, both or neither of them — put in its place as an error answer to the same
// id. The SDK drops such an answer without telling the request it answers (over stdio its Protocol
// reports "Unknown message type"; over Streamable HTTP its transport's parse fails), so that request
// waited out its whole timeout for an answer that had come. As an error answer it fails at once,
// and errors/request.ts says what was wrong. Remote servers' answers are checked in their HTTP
// bodies (answer-bodies.ts). Only the envelope is looked at, with a typeof or two
// on an answer that is fine; what a result holds is the SDK's to check, per method.
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/client';

/**
 * The code of the error answer put in its place, in JSON-RPC's implementation-defined range. The
 * server never sent it: its `data` (a NotValidMcp) says so.
 */
const NOT_VALID_MCP_CODE = -32098;

/**
 * What was wrong with the server's answer. Made only here and, for an answer that crossed an event
 * stream as text, in answer-bodies.ts, so a server's own error answer cannot pass for one
 * (errors/request.ts and errors/connect.ts tell it by its class).
 */
export class NotValidMcp {
  readonly issue: string;

  constructor(issue: string) {
    this.issue = issue;
  }
}

/** Whether `value` is marked as a JSON-RPC 2.0 message; what else it holds is not checked. */
export function isJsonRpc(value: unknown): value is JSONRPCMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { jsonrpc?: unknown }).jsonrpc === '2.0'
  );
}

/**
 * `message`, or the error answer that takes the place of an answer not valid MCP. An answer
 * whose id is not one a request can have is left as it is: nobody waits for it, and the SDK
 * reports it and drops it.
 */
export function checkedAnswer(message: JSONRPCMessage): JSONRPCMessage {
  if ('method' in message) return message;
  const issue = answerIssue(message as Answer);
  if (issue === undefined) return message;
  const { id } = message as Answer;
  if (typeof id !== 'string' && !Number.isInteger(id)) return message;
  return notValidAnswer(id as RequestId, issue);
}

/**
 * The error answer to request `id` that takes the place of the server's, which `issue` says is not
 * valid MCP; also for what only its method's reader can tell (a 2026 task: tasks/task-calls.ts).
 */
export function notValidAnswer(id: RequestId, issue: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: NOT_VALID_MCP_CODE,
      message: `the server's answer is not valid MCP: ${issue}`,
      data: new NotValidMcp(issue),
    },
  };
}

interface Answer {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** What is wrong with an answer's envelope; undefined when nothing is. */
function answerIssue(answer: Answer): string | undefined {
  if ('result' in answer) {
    const { result } = answer;
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      return `its "result" is ${kindOf(result)}, not an object`;
    }
    return 'error' in answer ? 'it has both "result" and "error"' : undefined;
  }
  if (!('error' in answer)) return 'it has neither "result" nor "error"';
  const { error } = answer;
  if (typeof error !== 'object' || error === null || Array.isArray(error)) {
    return `its "error" is ${kindOf(error)}, not an object`;
  }
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (!Number.isInteger(code)) return `its "error.code" is ${kindOf(code)}, not an integer`;
  if (typeof message !== 'string') return `its "error.message" is ${kindOf(message)}, not a string`;
  return undefined;
}

/** What a JSON value is, in words; never the value itself (it is the server's, and may be long). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
