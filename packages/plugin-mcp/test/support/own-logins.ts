// Remote servers look their OAuth login up by URL in a TokenStore, by default under
// $EPOCH_HOME/oauth. A test that expects a 401 to end in needsLogin must know there is no login for
// its URL, and ports are reused: a login left in a shared home could turn that 401 into a refresh.
// These transports keep their logins in a temp dir of the test's own, empty until the test saves one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenStore } from '../../src/oauth/token-store.js';
import { createTransport, type McpTransportFactory } from '../../src/transport/create.js';

export interface OwnLogins {
  readonly store: TokenStore;
  /** The real transports, with `store` as the OAuth login store of every remote server. */
  readonly createTransport: McpTransportFactory;
  remove(): void;
}

export function ownLogins(): OwnLogins {
  const dir = mkdtempSync(join(tmpdir(), 'epoch-logins-'));
  const store = new TokenStore({ dir });
  return {
    store,
    createTransport: (config, options) =>
      createTransport(config, { ...options, oauth: { ...options.oauth, store } }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
