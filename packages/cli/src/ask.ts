// One question asked on the terminal and its one-line answer: what `epoch mcp approve`, `status`,
// `call` and `tools` ask before a server that needs approval starts, and each prompt of a server's
// own question (elicit.ts; a secret is read by ask-secret.ts). Only when stdin and stderr are both
// terminals (io.ts decides): a pipe is never asked, so a script never hangs on a question.
import { createInterface } from 'node:readline';

/**
 * Writes `question` on stderr and resolves with the line typed on stdin; undefined at the end of
 * input or when `signal` aborts (Ctrl-C), which a caller takes as "no".
 */
export function askOnTerminal(question: string, signal: AbortSignal): Promise<string | undefined> {
  // Input that has ended (Ctrl-D) stays ended: a reader made now would wait for nothing.
  if (signal.aborted || process.stdin.readableEnded) return Promise.resolve(undefined);
  // Not `terminal: true`: the terminal stays in its own line mode, so it echoes what is typed and
  // Ctrl-C is a SIGINT to epoch, which aborts `signal` the way it does everywhere else.
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  return new Promise((resolve) => {
    let answered = false;
    const done = (answer: string | undefined) => {
      if (answered) return;
      answered = true;
      signal.removeEventListener('abort', close);
      lines.close();
      // A stdin still read from would keep the process alive after the command ends.
      process.stdin.pause();
      resolve(answer);
    };
    const close = () => done(undefined);
    signal.addEventListener('abort', close, { once: true });
    lines.once('close', close);
    lines.question(question, done);
  });
}

/** "y" or "yes", any case; everything else, an empty line included, is the default: no. */
export function saidYes(answer: string | undefined): boolean {
  return answer !== undefined && /^\s*y(?:es)?\s*$/i.test(answer);
}
