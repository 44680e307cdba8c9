// Why a server could not be started when the system refused its command line and environment as
// too large (E2BIG): which field holds what, and how big, so the message names the cause instead
// of the command or the directory. Only sizes and names are told: a value may be a secret.
import { groupedNumber } from '@epoch-agent/infra';

/**
 * What Linux takes in one argument or one variable (MAX_ARG_STRLEN); all of them together are held
 * to ARG_MAX as well, a quarter of the stack limit (often 2 MiB). Other systems have only the latter.
 */
const ONE_STRING_BYTES = 128 * 1024;

interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  /** The whole environment the child was given (childEnvironment). */
  readonly env: Readonly<Record<string, string>>;
  /** The variables the server's entry set ("env", "env_file"); the rest were inherited. */
  readonly configured: Readonly<Record<string, string>>;
}

/** The sentence after "could not start command …: ": the sizes, the largest, what to do. */
export function tooLargeText({ command, args, env, configured }: Launch): string {
  // As the kernel counts them: each string's bytes and its terminating NUL.
  const size = (text: string) => Buffer.byteLength(text) + 1;
  let argBytes = size(command);
  let longestArg = { index: -1, bytes: 0 };
  for (const [index, arg] of args.entries()) {
    const bytes = size(arg);
    argBytes += bytes;
    if (bytes > longestArg.bytes) longestArg = { index, bytes };
  }
  let envBytes = 0;
  let longestVar = { name: '', bytes: 0 };
  for (const [name, value] of Object.entries(env)) {
    const bytes = size(`${name}=${value}`);
    envBytes += bytes;
    if (bytes > longestVar.bytes) longestVar = { name, bytes };
  }
  const bytes = (n: number) => `${groupedNumber(n)} bytes`;
  const from = (name: string) =>
    Object.hasOwn(configured, name)
      ? 'set by its "env" or "env_file"'
      : 'inherited from this process';
  const culprit =
    longestArg.bytes > ONE_STRING_BYTES && longestArg.bytes >= longestVar.bytes
      ? ` "args"[${longestArg.index}] alone is ${bytes(longestArg.bytes)}, more than the ${bytes(ONE_STRING_BYTES)} one argument may hold.`
      : longestVar.bytes > ONE_STRING_BYTES
        ? ` Variable ${longestVar.name} (${from(longestVar.name)}) alone is ${bytes(longestVar.bytes)}, more than the ${bytes(ONE_STRING_BYTES)} one variable may hold.`
        : '';
  const largestArg = longestArg.index < 0 ? '' : `, the largest "args"[${longestArg.index}]`;
  const largestVar =
    longestVar.name === '' ? '' : `, the largest ${longestVar.name} (${from(longestVar.name)})`;
  return (
    `the system refused its arguments and environment as too large (E2BIG): the command and "args" take ${bytes(argBytes)}${largestArg}, the environment ${bytes(envBytes)}${largestVar}.${culprit} ` +
    'The system holds each argument and variable to a limit (128 KiB on Linux) and all of them together to another (ARG_MAX, often 2 MiB). Pass large data in a file, or through the server\'s own settings, rather than in "args" or "env".'
  );
}
