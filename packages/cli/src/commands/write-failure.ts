// How a refused edit of the user's mcp.json is told, the same for every command that edits it: the
// runtime's message, then each problem the loader found (a syntax error, an entry that would not
// load) on a line of its own; with --json the same as fields a script reads.
import type { McpConfigWriteError } from '@epoch-agent/runtime';
import { fail, type Invocation } from '../command.js';
import type { CliIo, ExitCode } from '../io.js';
import { exitOfWriteError } from './exit-of.js';

export function failWrite(
  io: CliIo,
  invocation: Invocation,
  error: McpConfigWriteError,
  words: string,
): ExitCode {
  const problems = error.diagnostics.map((d) => ({ path: d.path, message: d.message }));
  // A problem of the whole file (too deep, a syntax error) has no field path to name.
  const detail = problems
    .map(({ path, message }) => `\n  ${path === '' ? '' : `${path}: `}${message}`)
    .join('');
  return fail(
    io,
    invocation,
    exitOfWriteError(error.code),
    { code: error.code, message: `${error.message}${detail}`, file: error.file, problems },
    words,
  );
}
