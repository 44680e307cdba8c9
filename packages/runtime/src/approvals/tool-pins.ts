// The tool definitions a person approved, per server (README, "Pinned tools"): one file per server
// beside approvals.json, `tool-pins/<sha256 of "<source>:<name>">.json`, holding the launch they
// were pinned under and each tool's hash and definition. A definition is what the server sent (no
// env or header value of its entry is in it), and the file name is a hash, so no server's command,
// URL or secret is written here. 0600 in a 0700 directory, written atomically under a lock.
//
// A file that cannot be read or parsed pins nothing and withholds everything: an empty map, every
// tool of the server withheld until approved again. A missing file, or one pinned under another
// launch, is no pins: the server's next live list is pinned.

import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFile, withFileLock, writeFileAtomic } from '@epoch-agent/infra';
import type {
  McpPinnedServer,
  McpPinnedTool,
  McpPinnedTools,
  McpServerSource,
  McpToolDefinition,
  McpToolPinStore,
} from '@epoch-agent/plugin-mcp';

// Definitions of a few thousand tools fit in far less; anything larger is not this file.
const MAX_BYTES = 16 * 1024 * 1024;
// As approvals.json: a writer holds the lock for milliseconds.
const LOCK = { waitMs: 15_000, staleMs: 10_000 };
const VERSION = 1;
const HASH = /^sha256:[0-9a-f]{64}$/;

export class ToolPinFiles implements McpToolPinStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The file of one server's pins. */
  fileOf(source: McpServerSource, name: string): string {
    const id = createHash('sha256').update(`${source}:${name}`).digest('hex');
    return join(this.dir, `${id}.json`);
  }

  async read(server: McpPinnedServer): Promise<McpPinnedTools | undefined> {
    let text: string;
    try {
      text = (await readRegularFile(this.fileOf(server.source, server.name), MAX_BYTES)).toString(
        'utf8',
      );
    } catch (error) {
      // Never pinned; any other failure to read withholds every tool.
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : new Map();
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return new Map();
    }
    if (
      !isObject(value) ||
      value.version !== VERSION ||
      value.source !== server.source ||
      value.name !== server.name ||
      typeof value.launch !== 'string' ||
      !isObject(value.tools)
    ) {
      return new Map();
    }
    // Pinned under another launch: a person approved the new one, so it is pinned afresh.
    if (value.launch !== server.launch) return undefined;
    return pinsIn(value.tools);
  }

  async write(server: McpPinnedServer, tools: McpPinnedTools): Promise<void> {
    const file = this.fileOf(server.source, server.name);
    const { source, name, launch } = server;
    const content = { version: VERSION, source, name, launch, tools: Object.fromEntries(tools) };
    await withFileLock(file, LOCK, () =>
      writeFileAtomic(file, `${JSON.stringify(content, null, 2)}\n`, { ownerOnly: true }),
    );
  }

  /** Forgets the server's pins: its next live list is pinned afresh. */
  async remove(source: McpServerSource, name: string): Promise<void> {
    const file = this.fileOf(source, name);
    await withFileLock(file, LOCK, () => rm(file, { force: true }));
  }
}

// Each well-formed pin, by name (a Map: a tool named `__proto__` is no property); a malformed one is
// left out, so that tool is withheld as new. The hash is not computed again here: that would hash
// every pinned tool at every start, and whoever can write this file can write both.
function pinsIn(tools: Record<string, unknown>): Map<string, McpPinnedTool> {
  const pins = new Map<string, McpPinnedTool>();
  for (const [name, pin] of Object.entries(tools)) {
    if (!isObject(pin) || typeof pin.hash !== 'string' || !HASH.test(pin.hash)) continue;
    const { definition } = pin;
    if (!isObject(definition) || definition.name !== name || !isObject(definition.inputSchema)) {
      continue;
    }
    pins.set(name, { hash: pin.hash, definition: definition as unknown as McpToolDefinition });
  }
  return pins;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
