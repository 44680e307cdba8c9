// Claude Code's `headersHelper`, a command line its shell runs, as our `headers_helper`, a list of
// words run without one: a line of plain words is split into them; a line that needs a shell
// (quotes, `$`, `|`, `~`, …) is kept whole for `sh -c`, which the entry then says in so many words,
// so what an import approves is what will run. On Windows there is no `sh` to give it to.
import type { FieldRule } from './translate-entry.js';

// Characters a shell passes through unchanged in a word: a line of only these and blanks means
// the same split at blanks as it does to a shell.
const PLAIN_LINE = /^[\w./:=@%+,-]+(?:[ \t]+[\w./:=@%+,-]+)*$/;

export const headersHelper: FieldRule = (value, draft) => {
  const line = typeof value === 'string' ? value.trim() : '';
  if (line === '') {
    draft.note('headersHelper is not a command line, so it was not imported.');
    return;
  }
  if (PLAIN_LINE.test(line)) {
    const words = line.split(/[ \t]+/);
    draft.entry.headers_helper = words;
    const program = words[0] ?? '';
    if (/[\\/]/.test(program) && !program.startsWith('/')) {
      draft.note(
        `headersHelper "${program}" is a relative path: epoch reads it relative to its own mcp.json's directory; make it absolute if it is not there.`,
      );
    }
    return;
  }
  if (draft.platform === 'win32') {
    draft.note(
      'headersHelper is not imported: it is a shell command line, and epoch runs a headers helper without a shell; write it as "headers_helper": ["program", "arg", …].',
    );
    return;
  }
  draft.entry.headers_helper = ['sh', '-c', line];
  draft.note(
    'headersHelper is a shell command line: it is imported as "headers_helper": ["sh", "-c", …], so a shell runs it as before; write its words as a list to run it without one.',
  );
};
