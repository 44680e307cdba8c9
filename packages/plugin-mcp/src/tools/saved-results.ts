// The cut results this process saved, by the ids it handed out in their cut notes: what a model
// may read the rest of (the runtime's `mcp_read_result`), and nothing else. A model names an id,
// never a path, so no answer can come from a file this process did not write.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CHARS_PER_TOKEN } from '@epoch-agent/infra';

/** One saved result. */
export interface McpSavedResult {
  /** What the model names it by: 8 hex digits, unique in this process. */
  readonly id: string;
  /** Where it is ($EPOCH_HOME/tool-results/…): for the host and a person, never asked of a model. */
  readonly file: string;
  readonly server: string;
  readonly tool: string;
  /** Its server's max_output_tokens when it was cut: no read of it answers more. */
  readonly maxTokens: number;
}

/** A piece of a saved result. */
export interface McpSavedPiece {
  readonly text: string;
  /** Where the piece starts and ends, in characters of the whole. */
  readonly offset: number;
  readonly end: number;
  /** The whole result's length in characters. */
  readonly total: number;
}

export interface McpSavedResultsOptions {
  /**
   * The tool a model reads a saved result with, named with the id in each cut note (the runtime
   * offers `mcp_read_result`). Undefined: the note says which file holds the result, for the host.
   */
  readonly reader?: string;
}

export class McpSavedResults {
  readonly reader: string | undefined;
  readonly #saved = new Map<string, McpSavedResult>();
  readonly #listeners = new Set<(saved: McpSavedResult) => void>();

  constructor(options: McpSavedResultsOptions = {}) {
    this.reader = options.reader;
  }

  /** How many results this process saved. */
  get size(): number {
    return this.#saved.size;
  }

  /** Records a file just written; its listeners hear of it before the cut result is returned. */
  add(file: string, about: Omit<McpSavedResult, 'id' | 'file'>): McpSavedResult {
    let id = randomBytes(4).toString('hex');
    while (this.#saved.has(id)) id = randomBytes(4).toString('hex');
    const saved = { id, file, ...about };
    this.#saved.set(id, saved);
    for (const listener of [...this.#listeners]) listener(saved);
    return saved;
  }

  /** The result saved under `id` by this process; undefined for any other id. */
  get(id: string): McpSavedResult | undefined {
    return this.#saved.get(id);
  }

  /** Calls `listener` with each result saved from now on; returns the unsubscribe function. */
  onSaved(listener: (saved: McpSavedResult) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * `length` characters (at most what the result's cap allows) of saved result `saved` from
   * `offset`. Rejects as the file system does when the file is gone (pruned after a week, or by
   * the size budget).
   */
  async read(saved: McpSavedResult, offset: number, length: number): Promise<McpSavedPiece> {
    const whole = await readFile(saved.file, 'utf8');
    const start = Math.min(offset, whole.length);
    let end = Math.min(start + Math.min(length, saved.maxTokens * CHARS_PER_TOKEN), whole.length);
    // Half a surrogate pair is not a character: the next piece starts with the whole of it.
    const last = whole.charCodeAt(end - 1);
    if (end > start && end < whole.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    return { text: whole.slice(start, end), offset: start, end, total: whole.length };
  }
}
