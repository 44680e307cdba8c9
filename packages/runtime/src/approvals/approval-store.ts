// The approvals a person gave: `$EPOCH_HOME/approvals.json`, which launch of which server may
// start (README, "Trust"). By `<source>:<name>`, the launch keys approved (launchKey: hashes, so
// the file holds no command, URL or value, let alone a secret), newest first, each with when.
//
// Written under the same kind of lock as the user's mcp.json and atomically (temp file, rename),
// 0600 in a 0700 directory. Read again at every decision, never cached: `epoch mcp approve` in
// one process approves for a page that runs in another. A file that cannot be read or parsed
// approves nothing, which is the safe side: the servers then wait for a person again.

import { dirname, join } from 'node:path';
import { epochHome, readRegularFile, withFileLock, writeFileAtomic } from '@epoch-agent/infra';
import type { McpApprovalReason, McpServerSource } from '@epoch-agent/plugin-mcp';
import { ToolPinFiles } from './tool-pins.js';

/** The approvals file of the epoch home (`$EPOCH_HOME`, else `~/.epoch`). */
export function approvalsPath(): string {
  return join(epochHome(), 'approvals.json');
}

/** One approved form of a server. */
export interface McpApproval {
  /** Its launchKey: `sha256:<hex>`. */
  readonly launch: string;
  /** When it was approved (ISO 8601). */
  readonly approvedAt: string;
}

// A server edited back and forth keeps its last few forms approved; older ones ask again.
const KEPT_PER_SERVER = 8;
// Approvals of a few hundred servers fit in far less; anything larger is not this file.
const MAX_BYTES = 4 * 1024 * 1024;
// As the user's mcp.json: a writer holds the lock for milliseconds.
const LOCK = { waitMs: 15_000, staleMs: 10_000 };
const VERSION = 1;

// A Map, not an object: a server id read from the file is never a property name (`__proto__`).
type Approvals = Map<string, readonly McpApproval[]>;

/** One form of a server to approve. */
export interface ApprovedForm {
  readonly source: McpServerSource;
  readonly name: string;
  /** Its launchKey. */
  readonly launch: string;
}

/** Why a server's `launch` waits for approval (see ApprovalStore.reason), or undefined. */
export interface ApprovalReader {
  reason(
    source: McpServerSource,
    name: string,
    launch: string,
  ): Promise<McpApprovalReason | undefined>;
}

/** The approvals file at `file`; each method reads (and writes) it afresh. */
export class ApprovalStore implements ApprovalReader {
  readonly file: string;
  /** The tool definitions approved with each server (README, "Pinned tools"), beside the file. */
  readonly pins: ToolPinFiles;

  constructor(file: string = approvalsPath()) {
    this.file = file;
    this.pins = new ToolPinFiles(join(dirname(file), 'tool-pins'));
  }

  /** The approved forms of server `name` of `source`, newest first. */
  async approvals(source: McpServerSource, name: string): Promise<readonly McpApproval[]> {
    return (await this.#read()).get(idOf(source, name)) ?? [];
  }

  /**
   * Undefined when `launch` is an approved form of the server; else why it needs approval:
   * `changed` when another form of it was approved, `new` when none was.
   */
  async reason(
    source: McpServerSource,
    name: string,
    launch: string,
  ): Promise<McpApprovalReason | undefined> {
    return reasonIn(await this.approvals(source, name), launch);
  }

  /** Records `launch` as an approved form of the server, the newest. */
  approve(source: McpServerSource, name: string, launch: string): Promise<void> {
    return this.approveAll([{ source, name, launch }]);
  }

  /** approve of each of `forms` in one write: an import of thousands rewrites the file once. */
  async approveAll(forms: readonly ApprovedForm[]): Promise<void> {
    if (forms.length === 0) return;
    await this.#edit((all) => {
      const approvedAt = new Date().toISOString();
      for (const { source, name, launch } of forms) {
        const id = idOf(source, name);
        const others = (all.get(id) ?? []).filter((approval) => approval.launch !== launch);
        all.set(id, [{ launch, approvedAt }, ...others].slice(0, KEPT_PER_SERVER));
      }
      return true;
    });
  }

  /** The approvals as the file holds them now, read once: for deciding about many servers at once. */
  async snapshot(): Promise<ApprovalReader> {
    const all = await this.#read();
    return {
      reason: async (source, name, launch) => reasonIn(all.get(idOf(source, name)) ?? [], launch),
    };
  }

  /** Forgets every approved form of the server, and its pinned tools. */
  async revoke(source: McpServerSource, name: string): Promise<void> {
    await this.#edit((all) => all.delete(idOf(source, name)));
    await this.pins.remove(source, name);
  }

  /** `change` says whether it changed anything: nothing to write otherwise. */
  async #edit(change: (all: Approvals) => boolean): Promise<void> {
    await withFileLock(this.file, LOCK, async () => {
      const all = await this.#read();
      if (!change(all)) return;
      const servers = Object.fromEntries(all);
      const text = `${JSON.stringify({ version: VERSION, servers }, null, 2)}\n`;
      await writeFileAtomic(this.file, text, { ownerOnly: true });
    });
  }

  async #read(): Promise<Approvals> {
    let text: string;
    try {
      text = (await readRegularFile(this.file, MAX_BYTES)).toString('utf8');
    } catch {
      // Missing (nothing approved yet), or not a file epoch can read: nothing is approved.
      return new Map();
    }
    try {
      return approvalsIn(JSON.parse(text));
    } catch {
      return new Map();
    }
  }
}

function reasonIn(approved: readonly McpApproval[], launch: string): McpApprovalReason | undefined {
  if (approved.some((approval) => approval.launch === launch)) return undefined;
  return approved.length === 0 ? 'new' : 'changed';
}

function idOf(source: McpServerSource, name: string): string {
  return `${source}:${name}`;
}

/** The well-formed approvals of a parsed file; anything else in it is ignored, never trusted. */
function approvalsIn(value: unknown): Approvals {
  const out: Approvals = new Map();
  if (!isObject(value) || value.version !== VERSION || !isObject(value.servers)) return out;
  for (const [id, list] of Object.entries(value.servers)) {
    if (!Array.isArray(list)) continue;
    const approvals = list.filter(
      (item): item is McpApproval =>
        isObject(item) &&
        typeof item.launch === 'string' &&
        /^sha256:[0-9a-f]{64}$/.test(item.launch) &&
        typeof item.approvedAt === 'string',
    );
    if (approvals.length === 0) continue;
    out.set(
      id,
      approvals.map(({ launch, approvedAt }) => ({ launch, approvedAt })),
    );
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
