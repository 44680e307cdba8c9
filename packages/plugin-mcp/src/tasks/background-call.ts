// A tool call a host lets run while its agent loop goes on (a long one, typically a tool that runs
// as a task): started at once, its result a promise the host takes when it wants it, its state
// readable meanwhile, stopped by the call's ToolContext.signal or by cancel(). A task is then
// cancelled on its server (tasks/cancel), a plain call sent notifications/cancelled; the server's
// max_total_timeout bounds it as it bounds any call. Works for any EpochTool; imports nothing.
import type { EpochTool, ToolContext, ToolResult } from '@epoch-agent/protocol';

export type McpBackgroundState = 'running' | 'done' | 'failed' | 'cancelled';

export interface McpBackgroundCall {
  /** The tool's name as the model knows it. */
  readonly tool: string;
  /** Date.now() when it was started. */
  readonly startedAt: number;
  /** `done` (a result came: it may still be a tool error), `failed`, `cancelled`, or `running`. */
  readonly state: McpBackgroundState;
  /**
   * The result the model gets; rejects with the call's McpError (`aborted` once cancelled). Never
   * an unhandled rejection: a host that drops a call it no longer wants need not await it.
   */
  readonly result: Promise<ToolResult>;
  /** Stops the call (and its task on the server); nothing once it has ended. */
  cancel(reason?: string): void;
}

/** Starts `tool` with `args` and returns at once; `ctx.signal` stops it as cancel() does. */
export function startInBackground(
  tool: EpochTool,
  args: { readonly [key: string]: unknown },
  ctx: ToolContext,
): McpBackgroundCall {
  const own = new AbortController();
  const signal = AbortSignal.any([ctx.signal, own.signal]);
  let state: McpBackgroundState = 'running';
  const result = (async () => tool.execute(args, { ...ctx, signal }))().then(
    (answer) => {
      state = 'done';
      return answer;
    },
    (error: unknown) => {
      state = signal.aborted ? 'cancelled' : 'failed';
      throw error;
    },
  );
  result.catch(() => {});
  return {
    tool: tool.name,
    startedAt: Date.now(),
    get state() {
      return state;
    },
    result,
    cancel(reason = 'the host cancelled the call') {
      if (state === 'running') own.abort(new Error(reason));
    },
  };
}
