// McpRegistry: MANY servers, each behind its own McpClient. Connects them in parallel, keeps where
// each came from (source), and answers for all of them: statuses, tools, prompts. One server's
// failure is that server's status and never anyone else's problem: nothing here throws because a
// server failed.
import { type Logger, silentLogger } from '@epoch-agent/infra';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import { McpClient } from './client.js';
import { McpError } from './errors.js';
import { messageOf } from './request-options.js';
import { serverStatus } from './status.js';
import { MAX_TOOL_NAME_LENGTH } from './tool-names.js';
import { type McpEpochTool, toEpochTools } from './tools.js';
import { createTransport, type McpTransportFactory } from './transport/create.js';
import type { McpServerConfig, McpServerSource, McpServerStatus } from './types.js';

export interface McpRegistryOptions {
  /** Default: silentLogger. */
  readonly logger?: Logger;
  /** Longest tool name the model provider accepts. Default 128 (MAX_TOOL_NAME_LENGTH). */
  readonly toolNameMaxLength?: number;
  /** Default: the real transports. Injectable so registry logic can be tested on its own. */
  readonly createTransport?: McpTransportFactory;
}

/** Called with a server's new status whenever its state changes. */
export type McpStatusListener = (status: McpServerStatus) => void;

/** A prompt and the server that offers it. */
export interface McpServerPrompt {
  readonly server: string;
  readonly prompt: Prompt;
}

interface Entry {
  readonly config: McpServerConfig;
  readonly source: McpServerSource;
  readonly client: McpClient;
}

export class McpRegistry {
  readonly #logger: Logger;
  readonly #toolNameMaxLength: number;
  readonly #createTransport: McpTransportFactory;
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<McpStatusListener>();

  constructor(options: McpRegistryOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#toolNameMaxLength = options.toolNameMaxLength ?? MAX_TOOL_NAME_LENGTH;
    this.#createTransport = options.createTransport ?? createTransport;
  }

  /**
   * Connects every server at once (never one after another) and resolves when each is connected
   * or failed, with their statuses. A server's failure is in its status, not thrown. Throws only
   * for a caller's mistake: a name that is already registered (`duplicate_server`; disconnect it
   * first) — checked before anything starts.
   */
  async connectAll(
    configs: readonly McpServerConfig[],
    source: McpServerSource,
  ): Promise<McpServerStatus[]> {
    this.#checkNames(configs, source);
    const entries = configs.map((config) => this.#add(config, source));
    await Promise.all(
      entries.map((entry) =>
        entry.client.connect().catch((error: unknown) => {
          // Messages from the client are already free of secrets.
          this.#logger.warn(messageOf(error), { server: entry.config.name, source });
        }),
      ),
    );
    return entries.map((entry) => this.#status(entry));
  }

  /** Every registered server, in the order they were added. */
  statuses(): McpServerStatus[] {
    return [...this.#entries.values()].map((entry) => this.#status(entry));
  }

  /** The config a server runs with now; undefined when no server of that name is registered. */
  configOf(name: string): McpServerConfig | undefined {
    return this.#entries.get(name)?.config;
  }

  /** The tools of every connected server, as the model will see them. */
  tools(): McpEpochTool[] {
    return [...this.#entries.values()].flatMap(({ config, client }) => {
      const state = client.state;
      if (state.kind !== 'connected') return [];
      return toEpochTools({
        server: config.name,
        tools: state.tools,
        resources: state.resources,
        backend: client,
        nameOptions: { maxLength: this.#toolNameMaxLength },
      });
    });
  }

  /**
   * The prompts of every connected server that offers prompts, asked in parallel. A server whose
   * prompts/list fails is left out and logged; the others still answer.
   */
  async listPrompts(signal?: AbortSignal): Promise<McpServerPrompt[]> {
    const connected = [...this.#entries.values()].filter(
      ({ client }) => client.state.kind === 'connected',
    );
    const lists = await Promise.all(
      connected.map(async ({ config, client }): Promise<McpServerPrompt[]> => {
        try {
          const prompts = await client.listPrompts(signal);
          return prompts.map((prompt) => ({ server: config.name, prompt }));
        } catch (error) {
          this.#logger.warn(messageOf(error), { server: config.name });
          return [];
        }
      }),
    );
    return lists.flat();
  }

  getPrompt(
    server: string,
    name: string,
    args?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const entry = this.#entries.get(server);
    if (entry === undefined) return Promise.reject(this.#unknown(server));
    return entry.client.getPrompt(name, args, signal);
  }

  /**
   * Closes one server and reaps its process tree; the others are untouched. Its last status event
   * is `disconnected`, after which it is no longer registered. A name that is not registered is a
   * no-op.
   */
  async disconnect(name: string): Promise<void> {
    const entry = this.#entries.get(name);
    if (entry === undefined) return;
    this.#entries.delete(name);
    await entry.client.close();
    this.#emit(serverStatus(entry.config, entry.source, { kind: 'disconnected' }));
  }

  async disconnectAll(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((name) => this.disconnect(name)));
  }

  /** Calls `listener` with a server's status on every change; returns the unsubscribe function. */
  onStatus(listener: McpStatusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #checkNames(configs: readonly McpServerConfig[], source: McpServerSource): void {
    const seen = new Set<string>();
    for (const { name } of configs) {
      const existing = this.#entries.get(name);
      if (existing !== undefined || seen.has(name)) {
        const owner = existing === undefined ? 'this same call' : `a ${existing.source} server`;
        throw new McpError(
          'duplicate_server',
          `MCP server "${name}" (${source}) cannot be added: the name is already used by ${owner}. Disconnect that one first, or rename this one.`,
          { server: name },
        );
      }
      seen.add(name);
    }
  }

  #add(config: McpServerConfig, source: McpServerSource): Entry {
    const client = new McpClient({
      config,
      logger: this.#logger,
      createTransport: this.#createTransport,
    });
    const entry: Entry = { config, source, client };
    this.#entries.set(config.name, entry);
    client.onStateChange((state) => {
      // A server being disconnected reports its own last status; a removed one reports nothing.
      if (this.#entries.get(config.name) === entry) this.#emit(serverStatus(config, source, state));
    });
    return entry;
  }

  #status({ config, source, client }: Entry): McpServerStatus {
    return serverStatus(config, source, client.state);
  }

  #unknown(server: string): McpError {
    const known = [...this.#entries.keys()].map((name) => `"${name}"`).join(', ') || 'none';
    return new McpError(
      'unknown_server',
      `No MCP server "${server}" is registered (registered: ${known}).`,
      { server },
    );
  }

  #emit(status: McpServerStatus): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch (error) {
        this.#logger.error(`An MCP status listener threw: ${messageOf(error)}`, {
          server: status.name,
        });
      }
    }
  }
}
