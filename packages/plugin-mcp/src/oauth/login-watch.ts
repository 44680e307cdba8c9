// A login stored by another process, picked up: while a remote server is in needsLogin, the login
// directory is watched (a directory, so an atomic rename is seen), and once its URL's stored login
// holds tokens it did not hold when the server was refused, the server connects again. Once per new
// login, never a loop: what the refusal left behind (tokens this process refreshed and the server
// still refused, tokens dropped after invalid_grant) is never new. One this process stored is left
// to this process's own reconnect (runtime.login).
import { type FSWatcher, mkdirSync, watch } from 'node:fs';
import { type Logger, messageOf } from '@epoch-agent/infra';
import { startConfig } from '../connection/start-config.js';
import { serverRedactor } from '../secrets.js';
import type { McpServerConfig, McpServerStatus } from '../types.js';
import { TokenStore } from './token-store.js';

export interface LoginWatchOptions {
  /** The login directory (`$EPOCH_HOME/oauth`). */
  readonly dir: string;
  readonly logger: Logger;
  /** The server's config now; undefined once it is gone. */
  readonly configOf: (server: string) => McpServerConfig | undefined;
  /** Connects the server again (the registry's reconnect). */
  readonly connect: (server: string) => Promise<unknown>;
}

interface Waiting {
  /** The URL its login is stored under: the entry's, its variables expanded. */
  readonly url: string;
  /** The access token stored when it was refused (none: undefined). */
  readonly refused: string | undefined;
  /** The store's generation then: it moves when this process saves a login of that URL. */
  readonly generation: number;
}

export class LoginWatch {
  readonly #options: LoginWatchOptions;
  readonly #store: TokenStore;
  readonly #waiting = new Map<string, Waiting>();
  #watcher: FSWatcher | undefined;
  /** Every step in order: a server's refusal is noted before a change is compared against it. */
  #steps: Promise<void> = Promise.resolve();
  /** A look at the directory is queued: more events meanwhile need no look of their own. */
  #queued = false;

  constructor(options: LoginWatchOptions) {
    this.#options = options;
    this.#store = new TokenStore({ dir: options.dir, logger: options.logger });
  }

  /**
   * A server's new status, told at `since`: in needsLogin it is waited for, in any other state it
   * is not.
   */
  saw(status: McpServerStatus, since: number): void {
    const { name } = status;
    if (status.state !== 'needsLogin') {
      this.#step(async () => {
        this.#waiting.delete(name);
        if (this.#waiting.size === 0) this.#unwatch();
      });
      return;
    }
    this.#step(async () => {
      const config = this.#options.configOf(name);
      if (config === undefined || config.transport === 'stdio') return;
      const started = await startConfig(config, serverRedactor(config));
      if (!started.ok || started.config.transport === 'stdio') return;
      const { url } = started.config;
      const generation = this.#store.generation(url);
      const stored = await this.#store.load(url);
      const tokens = stored?.tokens;
      // Tokens obtained after the refusal (a login that won the race with this read) are new.
      const refused =
        tokens !== undefined && tokens.obtained_at < since ? tokens.access_token : undefined;
      this.#waiting.set(name, { url, refused, generation });
      this.#watch();
      // Stored before the watch began: its change was not seen, so it is looked at now.
      if (tokens !== undefined && refused === undefined) this.#changed();
      this.#options.logger.debug(
        `MCP server "${name}" needs a login: waiting for one to be stored in ${this.#options.dir}.`,
        { server: name },
      );
    });
  }

  #step(step: () => Promise<void>): void {
    this.#steps = this.#steps
      .then(step)
      .catch((error: unknown) =>
        this.#options.logger.warn(
          `Looking for a login stored meanwhile failed: ${messageOf(error)}`,
        ),
      );
  }

  #watch(): void {
    if (this.#watcher !== undefined) return;
    const { dir, logger } = this.#options;
    // Made here if no login was ever stored: a directory that is not there cannot be watched.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Not persistent: waiting for a login never keeps a process alive.
    this.#watcher = watch(dir, { persistent: false }, () => this.#changed());
    this.#watcher.on('error', (error) => {
      logger.warn(`Watching ${dir} for logins stopped: ${messageOf(error)}`);
      this.#unwatch();
    });
  }

  #unwatch(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #changed(): void {
    if (this.#queued) return;
    this.#queued = true;
    this.#step(async () => {
      this.#queued = false;
      await this.#look();
    });
  }

  async #look(): Promise<void> {
    const { logger, connect } = this.#options;
    for (const [name, waiting] of this.#waiting) {
      const token = (await this.#store.load(waiting.url))?.tokens?.access_token;
      if (token === undefined || token === waiting.refused) {
        logger.debug(`MCP server "${name}": the logins changed, but none new is stored for it.`, {
          server: name,
        });
        continue;
      }
      this.#waiting.delete(name);
      // A login this process made (the page's, runtime.login) is followed by its own reconnect.
      if (this.#store.generation(waiting.url) !== waiting.generation) continue;
      logger.info(`MCP server "${name}": a login was stored for it; connecting again.`, {
        server: name,
      });
      void connect(name).catch((error: unknown) =>
        logger.warn(
          `MCP server "${name}" did not connect with the new login: ${messageOf(error)}`,
          {
            server: name,
          },
        ),
      );
    }
    if (this.#waiting.size === 0) this.#unwatch();
  }
}
