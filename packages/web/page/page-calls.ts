// The tool calls this page runs (its "Try" forms), by the id each sends with its call: a server's
// question asked during one of them names that id (QuestionView.call), and the question's dialog
// offers to stop the call, which the Try's own Cancel would do were it not behind the dialog. The
// end of each is told to whoever listens: a call of a task tool has recorded its task by then, and
// the page's list of tasks reads them again.

const running = new Map<string, () => void>();
const ended = new Set<() => void>();

/** A call starts: its id to send, and `end` once it has ended however it did. */
export function startCall(stop: () => void): { readonly id: string; readonly end: () => void } {
  const id = crypto.randomUUID();
  running.set(id, stop);
  return {
    id,
    end: () => {
      running.delete(id);
      for (const listener of ended) listener();
    },
  };
}

/** `listener` after each call of this page ends; returns what stops it. */
export function whenCallEnds(listener: () => void): () => void {
  ended.add(listener);
  return () => {
    ended.delete(listener);
  };
}

/** Whether this page runs the call `id` now. */
export function runsCall(id: string | undefined): id is string {
  return id !== undefined && running.has(id);
}

/** Stops this page's call `id` (the server is told), as its Try's Cancel does. */
export function stopCall(id: string): void {
  running.get(id)?.();
}
