// `--scope` of the commands that write servers (add, add-json, import; the option is table.ts's):
// which file they go to,
// the user's mcp.json or the project's `.epoch/mcp.json`. Other clients' scopes are answered with
// how epoch says the same thing.
import type { ServerScope } from '@epoch-agent/runtime';
import { type Invocation, stringOption, UsageError } from '../command.js';

/** The scope the command line asks for; `user` when it names none. */
export function scopeOf(invocation: Invocation): ServerScope {
  const scope = stringOption(invocation, 'scope');
  switch (scope) {
    case undefined:
    case 'user':
      return 'user';
    case 'project':
      return 'project';
    case 'local':
      throw new UsageError(
        '--scope takes user or project; epoch has no "local" scope: a server only for you goes in your own mcp.json (--scope user), and a profile of its own is chosen with EPOCH_PROFILE=<name>',
      );
    default:
      throw new UsageError(`--scope takes user or project (got ${JSON.stringify(scope)})`);
  }
}
