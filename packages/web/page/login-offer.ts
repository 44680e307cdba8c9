// Whether a server's card offers "Log in": only when a login is what the server asks for. A remote
// server that is connected (a static Authorization header, or no auth at all) or unreachable has
// nothing a login would fix, and a button there only leads to a failure.
import type { ServerView } from '../src/api-types.js';

export function offersLogin({ target, status, login }: ServerView): boolean {
  if (target.transport === 'stdio') return false;
  // A login the page started is shown until it ends, and one that failed can be tried again.
  if (login !== undefined) return true;
  if (status === undefined || !('error' in status)) return false;
  // needs_login: the server refused our credentials; insufficient_scope: a login asks for more.
  return status.error.code === 'needs_login' || status.error.code === 'insufficient_scope';
}
