// Where OAuth logins are kept: one file per (server URL, authorization server) under
// `$EPOCH_HOME/oauth/`, named by hashes of the two so the name reveals neither, written atomically
// and readable by the owner only (0600). A file holds the registered client together with its
// tokens — a refresh must present the client id the tokens were issued to — plus what discovery
// found, so a refresh needs no discovery round trip.
//
// The server part of the name comes first: a connection that has not run discovery (it only
// knows its URL) finds its login by that prefix.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type Env,
  epochHome,
  type FileLockOptions,
  type Logger,
  silentLogger,
  withFileLock,
  writeFileAtomic,
} from '@epoch-agent/infra';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthProtectedResourceMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/client';

/** Tokens as kept: `expires_in` turned into a point in time when they were received. */
export interface StoredTokens {
  readonly access_token: string;
  readonly token_type: string;
  readonly refresh_token?: string;
  readonly scope?: string;
  /** Date.now() milliseconds; absent when the server did not say. */
  readonly expires_at?: number;
  /** When these tokens were received (Date.now() milliseconds). */
  readonly obtained_at: number;
}

export interface StoredLogin {
  readonly serverUrl: string;
  /** The authorization server's issuer identifier, as its metadata states it. */
  readonly issuer: string;
  /** The client the tokens belong to: registered dynamically, configured, or a metadata URL. */
  readonly client: OAuthClientInformationMixed;
  /** Absent after the authorization server rejected them: the client stays, a login is needed. */
  readonly tokens?: StoredTokens;
  readonly authorizationServerUrl: string;
  readonly authorizationServerMetadata?: AuthorizationServerMetadata;
  readonly resourceMetadata?: OAuthProtectedResourceMetadata;
  /** The RFC 8707 resource indicator the tokens were issued for. */
  readonly resource?: string;
  /**
   * The scopes a login to this server must ask for: those the last one asked for, and every one
   * the server demanded since (403 insufficient_scope). The next login asks for all of them.
   */
  readonly requiredScope?: string;
}

export interface TokenStoreOptions {
  /** Default: `$EPOCH_HOME/oauth`. */
  readonly dir?: string;
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** For the refresh lock; tests shorten them. Default: wait 30 s, take over after 30 s. */
  readonly lock?: FileLockOptions;
}

/**
 * Per store directory and server, how many times a TokenStore of this process changed its logins.
 * A connection that found no login remembers the number and looks again only when it moved (or
 * the server answers 401, which is how a login stored by another process is noticed).
 */
const generations = new Map<string, number>();

export function defaultTokenDir(env: Env = process.env): string {
  return join(epochHome(env), 'oauth');
}

/** Whether tokens that expire at `expiresAt` (Date.now() milliseconds; undefined: never) have. */
export function isExpired(expiresAt: number | undefined, now = Date.now()): boolean {
  return expiresAt !== undefined && expiresAt <= now;
}

/**
 * OAuth tokens as the token endpoint sent them, ready to keep. Throws for a token that is not a
 * bearer token: every request sends `Authorization: Bearer`, and a DPoP or MAC token sent so,
 * without its proof, is one the server should refuse.
 */
export function toStoredTokens(tokens: OAuthTokens, now = Date.now()): StoredTokens {
  if (tokens.token_type.toLowerCase() !== 'bearer') {
    const type = tokens.token_type.replace(/[^\w.-]/g, '').slice(0, 40);
    throw new Error(
      `the authorization server issued a token of type "${type}"; only Bearer tokens (RFC 6750) are supported`,
    );
  }
  return withoutUndefined<StoredTokens>({
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    refresh_token: tokens.refresh_token,
    scope: tokens.scope,
    expires_at: expiresAt(tokens.expires_in, now),
    obtained_at: now,
  });
}

/**
 * When tokens said to live `expiresIn` seconds expire; undefined when that is unknown. A null
 * (which the SDK's schema turns into 0), 0, a negative or an absurd number says nothing usable:
 * taken as "expired already", it would refresh before every request.
 */
function expiresAt(expiresIn: number | undefined, now: number): number | undefined {
  if (expiresIn === undefined || !(expiresIn > 0)) return undefined;
  const at = now + expiresIn * 1000;
  return Number.isFinite(at) ? at : undefined;
}

export class TokenStore {
  readonly dir: string;
  readonly #logger: Logger;
  readonly #lock: FileLockOptions;

  constructor(options: TokenStoreOptions = {}) {
    // Absolute, so two stores of one directory share its generations whatever path they were given.
    this.dir = resolve(options.dir ?? defaultTokenDir());
    this.#logger = options.logger ?? silentLogger;
    // 30 s is far beyond one refresh round trip: a lock that old belongs to a hung process.
    this.#lock = options.lock ?? { waitMs: 30_000, staleMs: 30_000 };
  }

  /** The file of one login. */
  fileFor(serverUrl: string, issuer: string): string {
    return join(this.dir, `${hash(serverUrl)}-${hash(issuer)}.json`);
  }

  /** Changes with every save or removal of a login of `serverUrl` made in this process. */
  generation(serverUrl: string): number {
    return generations.get(this.#generationKey(serverUrl)) ?? 0;
  }

  /**
   * The login for `serverUrl` with that authorization server; without `issuer`, the most recently
   * saved one for the server (there is more than one only when the server changed authorization
   * servers and both were logged in to).
   */
  async load(serverUrl: string, issuer?: string): Promise<StoredLogin | undefined> {
    if (issuer !== undefined) return this.#read(this.fileFor(serverUrl, issuer), serverUrl);
    const logins = await this.#all(serverUrl);
    return logins.sort((a, b) => savedAt(b) - savedAt(a))[0];
  }

  async save(login: StoredLogin): Promise<void> {
    const file = this.fileFor(login.serverUrl, login.issuer);
    const { loginFileText } = await import('./token-file.js');
    await writeFileAtomic(file, loginFileText(login), { ownerOnly: true });
    // After the write: a reader that saw the old number and then no file must see a new number.
    this.#changed(login.serverUrl);
  }

  /** Deletes every login of `serverUrl`; returns what was deleted (e.g. to revoke its tokens). */
  async remove(serverUrl: string): Promise<StoredLogin[]> {
    const logins = await this.#all(serverUrl);
    for (const name of await this.#names(serverUrl))
      await rm(join(this.dir, name), { force: true });
    this.#changed(serverUrl);
    return logins;
  }

  /** Deletes one login's tokens and keeps its client: the authorization server rejected them. */
  async forgetTokens(login: StoredLogin): Promise<StoredLogin> {
    const { tokens: _dropped, ...rest } = login;
    await this.save(rest);
    return rest;
  }

  /** Deletes one login whole: the authorization server no longer knows its client. */
  async forget(login: StoredLogin): Promise<void> {
    await rm(this.fileFor(login.serverUrl, login.issuer), { force: true });
    this.#changed(login.serverUrl);
  }

  /** Runs `fn` holding the cross-process lock of one login's file. */
  withLock<T>(serverUrl: string, issuer: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.fileFor(serverUrl, issuer), this.#lock, fn);
  }

  /**
   * Runs `fn` holding the lock of interactive logins to `serverUrl`, across processes. It does not
   * wait for another holder (InfraError `lock_timeout` at once); one older than `holdMs`, or whose
   * process is gone, is taken over.
   */
  withLoginLock<T>(serverUrl: string, holdMs: number, fn: () => Promise<T>): Promise<T> {
    // Not a login file's name: `<hash>.login.lock` is never read as a login.
    const file = join(this.dir, `${hash(serverUrl)}.login`);
    return withFileLock(file, { waitMs: 0, staleMs: holdMs }, fn);
  }

  /** No hashing: generation() is asked on every request of a server without a login. */
  #generationKey(serverUrl: string): string {
    return `${this.dir}\0${serverUrl}`;
  }

  #changed(serverUrl: string): void {
    const key = this.#generationKey(serverUrl);
    generations.set(key, (generations.get(key) ?? 0) + 1);
  }

  async #all(serverUrl: string): Promise<StoredLogin[]> {
    const logins: StoredLogin[] = [];
    for (const name of await this.#names(serverUrl)) {
      const login = await this.#read(join(this.dir, name), serverUrl);
      if (login !== undefined) logins.push(login);
    }
    return logins;
  }

  async #names(serverUrl: string): Promise<string[]> {
    const prefix = `${hash(serverUrl)}-`;
    try {
      return (await readdir(this.dir)).filter((n) => n.startsWith(prefix) && n.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async #read(file: string, serverUrl: string): Promise<StoredLogin | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    const { loginFileSchema } = await import('./token-file.js');
    const parsed = loginFileSchema.safeParse(data);
    // A file that is not a login is left alone (a person may want to look at it) and not used. The
    // reason names no content: a JSON error quotes the text, and the text holds tokens.
    if (!parsed.success || parsed.data.serverUrl !== serverUrl) {
      const reason = !parsed.success
        ? data === undefined
          ? 'it is not JSON'
          : `it is not a login of this version (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')})`
        : 'it belongs to another server URL';
      this.#logger.warn(
        `OAuth login file ${file} is ignored because ${reason}; the server needs a new login.`,
        { file },
      );
      return undefined;
    }
    const { version: _version, ...login } = parsed.data;
    // The metadata was validated by the SDK when it was discovered; only our own fields are checked.
    return login as unknown as StoredLogin;
  }
}

function savedAt(login: StoredLogin): number {
  return login.tokens?.obtained_at ?? 0;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

function withoutUndefined<T>(value: { readonly [K in keyof T]-?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
