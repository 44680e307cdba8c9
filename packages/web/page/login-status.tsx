// A remote server's stored OAuth login on its card: with which authorization server, when its
// access token expires (counted down as the page renders every second), its scopes, and Log out,
// which deletes it through the runtime as `epoch mcp logout` does. Never a token: the API sends
// none. Asked again whenever the server's state or the page's login of it changes, since a login
// or a refused token shows there first.
import type { McpServerState } from '@epoch-agent/runtime';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ServerView } from '../src/api-types.js';
import type { LoggedOut, OAuthStatus } from '../src/oauth-types.js';
import type { Api } from './api.js';
import { serverText } from './text.js';

interface Props {
  readonly server: ServerView;
  readonly api: Api;
  /** The server's API paths start here (`/api/mcp/<name>`). */
  readonly path: string;
}

type Known =
  | { readonly kind: 'asking' }
  | { readonly kind: 'known'; readonly status: OAuthStatus }
  | { readonly kind: 'failed'; readonly message: string };

export function LoginStatus({ server, api, path }: Props) {
  const [known, setKnown] = useState<Known>({ kind: 'asking' });
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<{ readonly text: string; readonly ok: boolean }>();
  const reportRef = useRef<HTMLParagraphElement>(null);
  const state: McpServerState = server.status?.state ?? 'disconnected';
  const loginState = server.login?.state;

  useEffect(() => {
    let current = true;
    void api.call<OAuthStatus>('GET', `${path}/oauth`).then((result) => {
      if (!current) return;
      setKnown(
        result.ok
          ? { kind: 'known', status: result.value }
          : { kind: 'failed', message: result.error.message },
      );
    });
    return () => {
      current = false;
    };
  }, [api, path, state, loginState]);

  // The button goes with the login: focus moves to what the logout did, not to the page's start.
  useEffect(() => {
    if (report !== undefined) reportRef.current?.focus();
  }, [report]);

  const logout = async () => {
    if (busy) return;
    setBusy(true);
    const result = await api.call<LoggedOut>('POST', `${path}/logout`);
    setBusy(false);
    if (!result.ok) {
      setReport({ text: result.error.message, ok: false });
      return;
    }
    setKnown({ kind: 'known', status: {} });
    setReport({ text: loggedOutText(result.value), ok: true });
  };

  const login = known.kind === 'known' ? known.status.login : undefined;
  return (
    <div class="login-status" data-logged-in={login?.hasTokens === true ? 'yes' : 'no'}>
      {known.kind === 'failed' && (
        <p class="problem">The stored login could not be read: {serverText(known.message)}</p>
      )}
      {known.kind === 'known' && (
        <p class="login-line">
          {login === undefined ? (
            'OAuth: no stored login.'
          ) : (
            <>
              OAuth: {login.hasTokens ? 'logged in' : 'login expired, log in again'} at{' '}
              <code>{serverText(login.issuer)}</code>
              {login.hasTokens && `, ${expiryText(login.expiresAt, login.refreshable === true)}`}
              {login.scope !== undefined && (
                <>
                  , scopes <code>{serverText(login.scope)}</code>
                </>
              )}
              .{' '}
              <button type="button" onClick={logout} aria-disabled={busy}>
                {busy ? 'Logging out…' : 'Log out'}
              </button>
            </>
          )}
        </p>
      )}
      {report !== undefined && (
        <p
          class={report.ok ? 'notice' : 'problem'}
          role={report.ok ? 'status' : 'alert'}
          tabIndex={-1}
          ref={reportRef}
        >
          {serverText(report.text)}
        </p>
      )}
    </div>
  );
}

/** `expires in 52 min`, `expired, will refresh`, `no expiry given`. */
function expiryText(expiresAt: number | undefined, refreshable: boolean): string {
  if (expiresAt === undefined) return 'no expiry given';
  const seconds = Math.floor((expiresAt - Date.now()) / 1000);
  if (seconds <= 0) return refreshable ? 'expired, will refresh' : 'expired, log in again';
  if (seconds < 60) return `expires in ${seconds} s`;
  if (seconds < 3600) return `expires in ${Math.floor(seconds / 60)} min`;
  if (seconds < 48 * 3600)
    return `expires in ${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `expires in ${Math.floor(seconds / 86400)} days`;
}

function loggedOutText({ removed, revoked, revokeProblem }: LoggedOut): string {
  if (removed === 0) return 'There was no stored login to log out of.';
  return revoked
    ? 'Logged out: the stored login is deleted, and the authorization server revoked its tokens.'
    : `Logged out: the stored login is deleted; its tokens were not revoked at the authorization server (${revokeProblem ?? 'no reason given'}), so they stop working when they expire.`;
}
