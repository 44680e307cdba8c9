// The schema cache: what each server offered the last time it connected (its tools, and whether it
// declared resources and prompts), so that the next start can show those tools at once instead of
// waiting for every server to spawn and answer. Memory first, disk second.
//
// Keyed by the config's fingerprint (a hash), never by its contents: a changed command, env or
// header gives another key, so an old list is never read for a new connection, and nothing of the
// config (env values, header values, URLs with tokens) is written to disk. One file per fingerprint
// rather than one shared file: two processes that cache different servers never read-modify-write
// the same file, so neither can lose the other's entry.
//
// The cache is an optimization: a file that is missing, unreadable, corrupt or of another shape is
// a miss (with a warning), and a failed write is a warning; neither is ever an error for the caller.
import { readFileSync } from 'node:fs';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  epochHome,
  type Logger,
  messageOf,
  silentLogger,
  writeFileAtomic,
} from '@epoch-agent/infra';
import type { Tool } from '@modelcontextprotocol/client';
import { fingerprint } from './config/fingerprint.js';
import type { McpConnectMemory, McpEraVerdict } from './connection/protocol.js';
import type { McpServerConfig } from './types.js';

/** What a server offers, as far as building its tools goes. */
export interface McpServerSchema {
  /** tools/list as the server answered it. */
  readonly tools: readonly Tool[];
  /** The server declared the resources capability (it gets list_resources / read_resource). */
  readonly resources: boolean;
  readonly prompts: boolean;
  /** How the connection that listed it met the server: the next connect starts from there. */
  readonly memory?: McpConnectMemory;
}

export interface McpSchemaCacheOptions {
  /** Where the files go. Default: `$EPOCH_HOME/cache/mcp-schemas` (see epochHome()). */
  readonly dir?: string;
  /** Default: silentLogger. */
  readonly logger?: Logger;
}

// Bump when the file format changes: files of another version are a miss, not a crash.
const FORMAT_VERSION = 1;

interface CacheFile extends McpServerSchema {
  readonly version: typeof FORMAT_VERSION;
  readonly fingerprint: string;
}

/** The default cache directory under the epoch home. */
export function defaultSchemaCacheDir(): string {
  return join(epochHome(), 'cache', 'mcp-schemas');
}

export class McpSchemaCache {
  readonly dir: string;
  readonly #logger: Logger;
  readonly #memory = new Map<string, McpServerSchema>();
  /** The last disk operation per fingerprint: a write and a later invalidate land in that order. */
  readonly #pending = new Map<string, Promise<void>>();
  /** Bumped by every set() and invalidate(): a read that overlapped one of them is stale. */
  readonly #generations = new Map<string, number>();
  #dirReady: Promise<void> | undefined;

  constructor(options: McpSchemaCacheOptions = {}) {
    this.dir = options.dir ?? defaultSchemaCacheDir();
    this.#logger = options.logger ?? silentLogger;
  }

  /** The cached schema for this config's fingerprint, or undefined (a miss). Never rejects. */
  async get(config: McpServerConfig): Promise<McpServerSchema | undefined> {
    const key = fingerprint(config);
    const remembered = this.#memory.get(key);
    if (remembered !== undefined) return remembered;
    const generation = this.#generation(key);
    await this.#pending.get(key);
    const loaded = await this.#load(key, config.name);
    // A set() or invalidate() while we read is newer than the file we read: it wins.
    if (this.#generation(key) !== generation) return this.#memory.get(key);
    if (loaded !== undefined) this.#memory.set(key, loaded);
    return loaded;
  }

  /**
   * Remembers `schema` for this config and writes it to disk (0600), unless it is a `private` list
   * of a server reached with a login (see onDisk). Never rejects.
   */
  set(config: McpServerConfig, schema: McpServerSchema): Promise<void> {
    const key = fingerprint(config);
    this.#bump(key);
    this.#memory.set(key, schema);
    // Nor may an older file of this config outlive it for the next process.
    if (!onDisk(config, schema)) return this.#delete(key, config);
    const data = JSON.stringify({ version: FORMAT_VERSION, fingerprint: key, ...schema });
    const file = this.#file(key);
    return this.#queue(key, async () => {
      try {
        await this.#ensureDir();
        await writeFileAtomic(file, data, { mode: 0o600 });
      } catch (error) {
        this.#logger.warn(
          `MCP server "${config.name}": could not write its schema cache file ${file}: ${messageOf(error)}. The next start waits for the server instead of showing its cached tools.`,
          { server: config.name },
        );
      }
    });
  }

  /** Forgets this config's entry, in memory and on disk. Never rejects. */
  invalidate(config: McpServerConfig): Promise<void> {
    const key = fingerprint(config);
    this.#bump(key);
    this.#memory.delete(key);
    return this.#delete(key, config);
  }

  #delete(key: string, config: McpServerConfig): Promise<void> {
    const file = this.#file(key);
    return this.#queue(key, async () => {
      try {
        await rm(file, { force: true });
      } catch (error) {
        this.#logger.warn(
          `MCP server "${config.name}": could not delete its schema cache file ${file}: ${messageOf(error)}. Delete it by hand; until then a start shows the old tools until the server answers.`,
          { server: config.name },
        );
      }
    });
  }

  /** Resolves when every disk operation started so far has finished (a process about to exit). */
  async settled(): Promise<void> {
    await Promise.all(this.#pending.values());
  }

  #generation(key: string): number {
    return this.#generations.get(key) ?? 0;
  }

  #bump(key: string): void {
    this.#generations.set(key, this.#generation(key) + 1);
  }

  #file(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  async #load(key: string, server: string): Promise<McpServerSchema | undefined> {
    const file = this.#file(key);
    let text: string;
    try {
      // At once, not through libuv's thread pool: every start waits for this read (usually a miss
      // on a first start, or a few KB), and the round trip cost more than the read itself.
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.#ignored(server, file, `it could not be read (${messageOf(error)})`);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.#ignored(server, file, 'it is not valid JSON');
      return undefined;
    }
    const entry = await cacheFile(json);
    if (entry === undefined) {
      this.#ignored(server, file, 'it does not have the shape of a schema cache entry');
      return undefined;
    }
    if (entry.fingerprint !== key) {
      this.#ignored(server, file, 'it belongs to another configuration');
      return undefined;
    }
    const { tools, resources, prompts, memory } = entry;
    return { tools, resources, prompts, ...(memory === undefined ? {} : { memory }) };
  }

  #ignored(server: string, file: string, why: string): void {
    this.#logger.warn(
      `MCP server "${server}": ignoring the cached tool list in ${file}: ${why}. The server is asked for its tools instead; the file is replaced once it answers (or delete it).`,
      { server },
    );
  }

  /** Runs `operation` (which must not reject) after the previous disk operation on `key`. */
  #queue(key: string, operation: () => Promise<void>): Promise<void> {
    const previous = this.#pending.get(key) ?? Promise.resolve();
    const next = previous.then(operation).finally(() => {
      if (this.#pending.get(key) === next) this.#pending.delete(key);
    });
    this.#pending.set(key, next);
    return next;
  }

  // writeFileAtomic creates missing directories 0700; this also narrows one that already existed.
  #ensureDir(): Promise<void> {
    this.#dirReady ??= mkdir(this.dir, { recursive: true, mode: 0o700 })
      .then(() => chmod(this.dir, 0o700))
      .catch((error: unknown) => {
        this.#dirReady = undefined;
        throw error;
      });
    return this.#dirReady;
  }
}

/**
 * Whether an entry may be written to disk. A list the server marked `private` (SEP-2549) belongs
 * to the authorization context it was listed in. The fingerprint covers a config's env and headers,
 * so for a stdio server, or a remote one given its Authorization header, that context is the config
 * itself. A remote server reached otherwise may be reached with an OAuth login, which is not in the
 * config and may change under it (a logout, a login as someone else): its private list stays in
 * this process's memory only.
 */
function onDisk(config: McpServerConfig, schema: McpServerSchema): boolean {
  if (schema.memory?.toolsScope !== 'private' || config.transport === 'stdio') return true;
  return Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
}

/**
 * `json` as a cache file of this format, every tool a valid MCP Tool; undefined when it is not.
 * The SDK's check of a Tool is loaded here, on the first read: a warm start connects its servers
 * anyway, and that needs the SDK too.
 */
async function cacheFile(json: unknown): Promise<CacheFile | undefined> {
  if (typeof json !== 'object' || json === null) return undefined;
  const { version, fingerprint, tools, resources, prompts, memory } = json as Record<
    string,
    unknown
  >;
  if (
    version !== FORMAT_VERSION ||
    typeof fingerprint !== 'string' ||
    !Array.isArray(tools) ||
    typeof resources !== 'boolean' ||
    typeof prompts !== 'boolean'
  ) {
    return undefined;
  }
  const { isSpecType } = await import('@modelcontextprotocol/client');
  if (!tools.every((tool) => isSpecType.Tool(tool))) return undefined;
  const entry: CacheFile = { version, fingerprint, tools: tools as Tool[], resources, prompts };
  if (memory === undefined) return entry;
  const remembered = connectMemory(memory, isSpecType.DiscoverResult);
  return remembered === undefined ? undefined : { ...entry, memory: remembered };
}

function connectMemory(
  json: unknown,
  isDiscoverResult: (value: unknown) => boolean,
): McpConnectMemory | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { verdict, toolsFreshUntil, toolsScope } = json as Record<string, unknown>;
  if (toolsFreshUntil !== undefined && typeof toolsFreshUntil !== 'number') return undefined;
  if (toolsScope !== undefined && toolsScope !== 'public' && toolsScope !== 'private') {
    return undefined;
  }
  if (typeof verdict !== 'object' || verdict === null) return undefined;
  const { era, version, discover } = verdict as Record<string, unknown>;
  if (typeof version !== 'string') return undefined;
  let checked: McpEraVerdict;
  if (era === 'legacy') checked = { era, version };
  else if (era === 'modern' && isDiscoverResult(discover)) {
    const modern = discover as Extract<McpEraVerdict, { era: 'modern' }>['discover'];
    checked = { era, version, discover: modern };
  } else return undefined;
  return {
    verdict: checked,
    ...(toolsFreshUntil === undefined ? {} : { toolsFreshUntil }),
    ...(toolsScope === undefined ? {} : { toolsScope }),
  };
}
