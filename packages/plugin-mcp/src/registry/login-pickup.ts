// A server in needsLogin connects by itself once a login for it is stored, by this process or
// another one (`epoch mcp login` while a host or `epoch web` runs): the registry's part of it.
// What watches and decides is oauth/login-watch.ts, loaded at the first needsLogin (it brings the
// login store and a file watch); a registry whose servers never need a login loads none of it.
import { messageOf } from '@epoch-agent/infra';
import { defaultTokenDir } from '../oauth/token-store.js';
import { restart } from './lifecycle.js';
import type { Servers } from './servers.js';

export function pickUpLogins(servers: Servers): void {
  const { logger } = servers;
  // Read once, as the schema cache's directory is: EPOCH_HOME when the registry was made.
  const dir = defaultTokenDir();
  let watch: Promise<import('../oauth/login-watch.js').LoginWatch> | undefined;
  servers.statusListeners.add((status) => {
    if (watch === undefined && status.state !== 'needsLogin') return;
    const since = Date.now();
    watch ??= import('../oauth/login-watch.js').then(
      ({ LoginWatch }) =>
        new LoginWatch({
          dir,
          logger,
          configOf: (name) => servers.entries.get(name)?.config,
          connect: (name) => restart(servers, name),
        }),
    );
    watch
      .then((loaded) => loaded.saw(status, since))
      .catch((error: unknown) => logger.warn(`Waiting for a login failed: ${messageOf(error)}`));
  });
}
