// One line typed on the terminal without being shown: a server's secret field (a password, a
// token). The terminal is put in raw mode, so it echoes nothing and nothing is printed per key: the
// value is never on the screen, in its scrollback or in a recording of the session.
//
// Raw mode also turns off the terminal's own keys, so the few a line needs are read here: Enter
// ends it, Backspace and Ctrl-U take back, Ctrl-D on an empty line is the end of input (no answer),
// and Ctrl-C is sent to this process as the SIGINT the terminal would have sent: it stops the
// command exactly as it does everywhere else (interrupt.ts).

/** Escape sequences (arrows, function keys): keys of no meaning in a hidden line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the sequences are control characters.
const ESCAPES = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/gs;

/**
 * Writes `question` on stderr and resolves with the line typed on stdin, unseen; undefined at the
 * end of input or when `signal` aborts.
 */
export function askHidden(question: string, signal: AbortSignal): Promise<string | undefined> {
  if (signal.aborted || process.stdin.readableEnded) return Promise.resolve(undefined);
  const stdin = process.stdin;
  // Raw before the question shows: what is typed once it is on the screen is never echoed.
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  process.stderr.write(question);
  return new Promise((resolve) => {
    let typed: string[] = [];
    let answered = false;
    const done = (answer: string | undefined) => {
      if (answered) return;
      answered = true;
      stdin.off('data', read);
      stdin.off('end', close);
      signal.removeEventListener('abort', close);
      stdin.setRawMode(false);
      // A stdin still read from would keep the process alive after the command ends.
      stdin.pause();
      // Enter was not echoed either: the next line starts below the question.
      process.stderr.write('\n');
      resolve(answer);
    };
    const close = () => done(undefined);
    const read = (chunk: string) => {
      for (const key of chunk.replace(ESCAPES, '')) {
        if (key === '\r' || key === '\n') return done(typed.join(''));
        if (key === '\x03') {
          // The terminal's Ctrl-C, which raw mode delivered as a byte: the abort comes back
          // through `signal`.
          process.kill(process.pid, 'SIGINT');
          return;
        }
        if (key === '\x04') {
          if (typed.length === 0) return done(undefined);
        } else if (key === '\x7f' || key === '\b') typed = typed.slice(0, -1);
        else if (key === '\x15') typed = [];
        else if (key >= ' ') typed.push(key);
      }
    };
    signal.addEventListener('abort', close, { once: true });
    stdin.on('data', read);
    stdin.once('end', close);
    stdin.resume();
  });
}
