// A command line pasted into the "add server" form (`npx -y @scope/server "/my docs"`) split into
// words the way a POSIX shell splits it — without running one. epoch starts a stdio server with
// its command and arguments directly (no shell), so the form must give it the words a shell would
// have made: quotes group, backslashes escape, `#` starts a comment, and leading `NAME=value` words
// set the environment (`API_KEY=… npx server`, as READMEs write it).
//
// What only a running shell can do — expand `$VAR`, `~` or `$(…)`, pipe, redirect, chain with
// `;` or `&&` — is refused with the place it happens, rather than passed on as a literal argument
// that would quietly mean something else.

export interface CommandWords {
  readonly ok: true;
  /** Leading `NAME=value` words, in order. */
  readonly env: readonly (readonly [name: string, value: string])[];
  /** The command, then its arguments; empty for a blank line. */
  readonly argv: readonly string[];
}

export interface CommandLineError {
  readonly ok: false;
  readonly message: string;
  /** Where in the line (0-based). */
  readonly at: number;
}

const BLANK = /[ \t\n]/;
const OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')']);
// Inside double quotes, a backslash escapes only these; before anything else it is kept.
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

interface Word {
  text: string;
  /** Where in `text` the first quoted or escaped character went: an `=` after it is no assignment. */
  quotedFrom: number;
}

export function splitCommandLine(line: string): CommandWords | CommandLineError {
  const words: Word[] = [];
  let word: Word | undefined;
  const put = (text: string, quoted: boolean) => {
    word ??= { text: '', quotedFrom: Number.POSITIVE_INFINITY };
    if (quoted) word.quotedFrom = Math.min(word.quotedFrom, word.text.length);
    word.text += text;
  };
  const fail = (message: string, at: number): CommandLineError => ({ ok: false, message, at });
  const noShell = (what: string, at: number) =>
    fail(`${what}: epoch starts the command without a shell, so nothing would do that.`, at);

  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (BLANK.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else if (c === '\\') {
      const next = line[i + 1];
      if (next === undefined) return fail('the line ends with a lone backslash', i);
      i++;
      // Backslash-newline continues the line: it is no character at all.
      if (next !== '\n') put(next, true);
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return fail('a single quote is not closed', i);
      put(line.slice(i + 1, end), true);
      i = end;
    } else if (c === '"') {
      let text = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j] as string;
        if (d === '$' || d === '`') return noShell(`"${d}" inside double quotes expands`, j);
        if (d === '\\' && j + 1 < line.length && DOUBLE_QUOTE_ESCAPES.has(line[j + 1] as string)) {
          j++;
          if (line[j] !== '\n') text += line[j];
        } else {
          text += d;
        }
      }
      if (j >= line.length) return fail('a double quote is not closed', i);
      put(text, true);
      i = j;
    } else if (OPERATORS.has(c)) {
      return noShell(`"${c}" is shell syntax (a pipe, redirect, list or subshell)`, i);
    } else if (c === '$' || c === '`') {
      return noShell(`"${c}" expands a variable or command`, i);
    } else if (c === '~' && word === undefined) {
      return noShell('"~" stands for your home folder only in a shell; write the full path', i);
    } else {
      put(c, false);
    }
  }
  if (word !== undefined) words.push(word);

  const env: (readonly [string, string])[] = [];
  let first = 0;
  for (; first < words.length; first++) {
    const { text, quotedFrom } = words[first] as Word;
    const assignment = ASSIGNMENT.exec(text);
    if (assignment === null || assignment[0].length > quotedFrom) break;
    env.push([assignment[1] as string, text.slice(assignment[0].length)]);
  }
  return { ok: true, env, argv: words.slice(first).map(({ text }) => text) };
}
