// The OAuth logins the page starts (POST /api/mcp/:name/login). A login outlives the request that
// starts it: the request answers with the authorization URL, the page sends the browser there, and
// the runtime's login goes on until the authorization server sends the browser back (to the page,
// by the login's returnUrl) and the new tokens are checked. Meanwhile the page shows it as pending;
// a login that fails after that is kept as failed, so the page that comes back can say why.
import { messageOf } from '@epoch-agent/infra';
import type { Runtime } from '@epoch-agent/runtime';
import type { LoginView } from './api-types.js';

export interface PageLoginsOptions {
  readonly runtime: Runtime;
  /** The page, token included: where the browser comes back to. */
  readonly returnUrl: string;
  /** Called whenever a login's view changes. */
  readonly onChange: () => void;
}

interface Pending {
  /** The current round's authorization URL, once the runtime has one. */
  url: string | undefined;
  /** The first one; undefined when the login ended without the browser. */
  firstUrl: Promise<string | undefined>;
}

export class PageLogins {
  readonly #options: PageLoginsOptions;
  readonly #pending = new Map<string, Pending>();
  readonly #failed = new Map<string, string>();
  readonly #stop = new AbortController();

  constructor(options: PageLoginsOptions) {
    this.#options = options;
  }

  /**
   * Starts a login to `name`, or joins the one already waiting for the browser: resolves with the
   * authorization URL to send the browser to. Rejects with the runtime's error when the login
   * fails before there is one (an unknown or stdio server, an authorization server that cannot be
   * reached).
   */
  start(name: string): Promise<string | undefined> {
    const joined = this.#pending.get(name);
    if (joined !== undefined) {
      return joined.url === undefined ? joined.firstUrl : Promise.resolve(joined.url);
    }
    const { runtime, returnUrl, onChange } = this.#options;
    let gotUrl: (url: string) => void = () => {};
    const asked = new Promise<string>((resolve) => {
      gotUrl = resolve;
    });
    const pending: Pending = { url: undefined, firstUrl: asked };
    const login = runtime.login(name, {
      onAuthorizationUrl: (url) => {
        pending.url = url;
        gotUrl(url);
        onChange();
      },
      // The page sends the browser there itself: it is the page's own tab that should go.
      openUrl: async () => {},
      returnUrl,
      signal: this.#stop.signal,
    });
    pending.firstUrl = Promise.race([asked, login.then(() => undefined)]);
    this.#pending.set(name, pending);
    this.#failed.delete(name);
    onChange();
    login.then(
      () => this.#ended(name),
      (error: unknown) => {
        // Before the URL the request that started it says why; after it, the page does.
        if (pending.url !== undefined && !this.#stop.signal.aborted) {
          this.#failed.set(name, messageOf(error));
        }
        this.#ended(name);
      },
    );
    return pending.firstUrl;
  }

  /** The login the page should show for `name`, if any. */
  view(name: string): LoginView | undefined {
    const pending = this.#pending.get(name);
    if (pending !== undefined) {
      return pending.url === undefined
        ? { state: 'pending' }
        : { state: 'pending', authorizationUrl: pending.url };
    }
    const failed = this.#failed.get(name);
    return failed === undefined ? undefined : { state: 'failed', message: failed };
  }

  /** Stops every login still waiting (their callback servers close). */
  close(): void {
    this.#stop.abort(new Error('epoch web was stopped before the login finished.'));
  }

  #ended(name: string): void {
    this.#pending.delete(name);
    this.#options.onChange();
  }
}
