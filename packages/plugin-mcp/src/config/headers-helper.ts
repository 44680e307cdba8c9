// Step 2 for an entry's `headers_helper`: a command given as words, each one a word of its own
// (never split, never given to a shell), the program first. A program named by a relative path
// (`./get-token.sh`) is relative to the file that names it, as `cwd` and `env_file` are; a bare
// name (`gcloud`) is looked up on PATH when it runs.
import { isAbsolute, resolve } from 'node:path';
import type { Report } from './report.js';

/** The helper's words; undefined when the entry has none, null when they are wrong (reported). */
export function readHeadersHelper(
  name: string,
  words: readonly string[] | undefined,
  key: string,
  baseDir: string,
  report: Report,
): readonly string[] | undefined | null {
  if (words === undefined) return undefined;
  const [program, ...args] = words;
  if (program === undefined || program.trim() === '') {
    report(
      'error',
      'invalid_value',
      [key],
      `"${key}" of server "${name}" needs the program to run as its first word, e.g. "${key}": ["gcloud", "auth", "print-access-token"]; or remove it.`,
    );
    return null;
  }
  const relative = /[\\/]/.test(program) && !isAbsolute(program);
  return [relative ? resolve(baseDir, program) : program, ...args];
}
