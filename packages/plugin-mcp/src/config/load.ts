// mcp.json, from text (or a file) to server configs plus diagnostics. Never throws: a config
// mistake must show up as a diagnostic that names the file, field and line, not as "no MCP".
//
// One bad server never hides the others; a syntax error loads nothing from the file, because
// after one the rest of the text cannot be trusted to mean what it seems to.
import {
  type Diagnostic,
  isInfraError,
  MAX_CONFIG_BYTES,
  type PathSegment,
  type Position,
  readRegularFile,
} from '@epoch-agent/infra';
import { getLocation, getNodeValue, type Node, type ParseError, parseTree } from 'jsonc-parser';
import type { McpServerConfig } from '../types.js';
import { type McpServerOverride, readChoice } from './choice.js';
import { cappedDiagnostics } from './diagnostic-cap.js';
import { duplicateKeys, keysOf, kindOf, MAX_DEPTH, tooDeepAt } from './file-shape.js';
import { configPositions, type McpConfigPositions } from './key-positions.js';
import { createLocator, describeSyntaxError, type Locator } from './locate.js';
import { type Property, propertiesOf } from './properties.js';
import { diagnostic, reporter, type Where } from './report.js';
import { readFields } from './schema.js';
import { parseServer } from './server.js';
import { suggest } from './suggest.js';
import { BUDGET_KEYS, readToolBudget } from './tool-budget.js';

export interface McpConfigLoad {
  /** The servers that loaded, in file order. */
  readonly servers: readonly McpServerConfig[];
  /**
   * The `overrides` entries that loaded, in file order: turning a plugin's or host's server (or
   * some of its tools) off. Only the user's mcp.json's count; the runtime ignores a plugin's.
   */
  readonly overrides: readonly McpServerOverride[];
  /**
   * `tool_budget_tokens`: how many tokens of every request the tools' definitions may take before
   * servers' tools are found on demand instead; absent when the file does not say (or says
   * something that is not a whole number of tokens: then a diagnostic says so).
   */
  readonly toolBudgetTokens?: number;
  /**
   * Where each entry of `servers` and `overrides` is written, and the keys of its fields; absent
   * when the file writes none, or nothing is loaded from it.
   */
  readonly positions?: McpConfigPositions;
  /** Sorted by position in the file. */
  readonly diagnostics: readonly Diagnostic[];
}

const EMPTY: McpConfigLoad = { servers: [], overrides: [], diagnostics: [] };
/**
 * `mcpServers` is the name Claude Desktop, Cursor and others give `servers`: a file pasted from one
 * of them is read as it means, never found silently empty (README "mcp.json").
 */
type ServersKey = 'servers' | 'mcpServers';
const TOP_LEVEL = ['servers', 'mcpServers', 'overrides', ...BUDGET_KEYS];

/**
 * Reads mcp.json text (JSONC: comments and trailing commas allowed). `file` names it in diagnostics,
 * and a relative `cwd` in the file is resolved against its directory.
 */
export function parseMcpConfig(text: string, file: string): McpConfigLoad {
  const steps = parseSteps(text, file);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * How long a load runs before it lets the event loop turn: a file of 100,000 entries takes
 * seconds, and a signal (Ctrl-C, SIGTERM) is only heard between turns.
 */
const SLICE_MS = 20;

/** parseMcpConfig, letting the event loop turn every SLICE_MS; rejects once `signal` aborts. */
async function parseInSlices(
  text: string,
  file: string,
  signal: AbortSignal | undefined,
): Promise<McpConfigLoad> {
  const steps = parseSteps(text, file);
  let sliceStart = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (performance.now() - sliceStart < SLICE_MS) continue;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    sliceStart = performance.now();
  }
}

/** The load, yielding after each step that may be one of thousands (an entry, a whole pass). */
function* parseSteps(text: string, file: string): Generator<void, McpConfigLoad> {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const deep = tooDeepAt(source);
  if (deep !== undefined) {
    const where: Where = { file, locator: createLocator(source, undefined) };
    const at = where.locator.offset(deep);
    return unreadable(
      where,
      'too_deep',
      [],
      `the file nests objects and lists more than ${MAX_DEPTH} levels deep (at line ${at.line}, column ${at.column}); an mcp.json needs a handful.`,
      at,
    );
  }
  yield;
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { allowTrailingComma: true, allowEmptyContent: true });
  yield;
  const where: Where = { file, locator: createLocator(source, root) };

  const first = errors[0];
  if (first !== undefined) {
    // Only the first: the ones after it are mostly echoes of it.
    const path = getLocation(source, first.offset).path.filter((segment) => segment !== '');
    return unreadable(
      where,
      'syntax_error',
      path,
      `JSON syntax error: ${describeSyntaxError(first)}.`,
      where.locator.offset(first.offset),
    );
  }
  // An empty file (or one with only comments) is a file with no servers yet.
  if (root === undefined) return EMPTY;

  const diagnostics: Diagnostic[] = duplicateKeys(root, where);
  yield;
  if (root.type !== 'object') {
    diagnostics.push(
      diagnostic(
        where,
        'error',
        'invalid_type',
        [],
        `the file must hold an object like { "servers": { "name": { … } } } (it holds ${kindOf(root)}).`,
      ),
    );
    return { servers: [], overrides: [], diagnostics: cappedDiagnostics(diagnostics) };
  }
  for (const key of keysOf(root)) {
    if (TOP_LEVEL.includes(key)) continue;
    const guess = suggest(key, TOP_LEVEL);
    diagnostics.push(
      diagnostic(
        where,
        'warning',
        'unknown_field',
        [key],
        `"${key}" is not a top-level field and is ignored. ${guess === undefined ? 'Servers go under "servers".' : `Did you mean "${guess}"?`}`,
        'key',
      ),
    );
  }

  const serversKey = serversKeyOf(root, where, diagnostics);
  // Diagnostics keep one name for the list, `servers.<name>.<field>`, whatever the file calls it;
  // only their line and column follow the key the file writes.
  const inServers: Where =
    serversKey === 'servers' ? where : { ...where, locator: renamedServers(where.locator) };
  const serverEntries = entriesOf(
    root,
    serversKey,
    `"${serversKey}": { "github": { "command": "npx" } }`,
    inServers,
    diagnostics,
  );
  const servers: McpServerConfig[] = [];
  for (const { key, value } of withoutCaseTwins(serverEntries, inServers, diagnostics)) {
    const result = parseServer(key, getNodeValue(value), inServers);
    // One by one, not push(...): an entry of 100,000 fields may have more diagnostics than a
    // call takes arguments.
    for (const found of result.diagnostics) diagnostics.push(found);
    if (result.config !== undefined) servers.push(result.config);
    yield;
  }
  const overrideEntries = entriesOf(
    root,
    'overrides',
    '"overrides": { "acme__search": { "enabled": false } }',
    where,
    diagnostics,
  );
  const overrides: McpServerOverride[] = [];
  for (const { key, value } of overrideEntries) {
    const override = parseOverride(key, getNodeValue(value), where, diagnostics);
    if (override !== undefined) overrides.push(override);
    yield;
  }
  const toolBudgetTokens = readToolBudget(root, where, diagnostics);
  const positions = configPositions(serverEntries, overrideEntries, where.locator);
  return {
    servers,
    overrides,
    ...(toolBudgetTokens === undefined ? {} : { toolBudgetTokens }),
    ...(positions === undefined ? {} : { positions }),
    diagnostics: cappedDiagnostics(diagnostics),
  };
}

/**
 * Which key holds the servers: `mcpServers` when the file writes only that one. A file writing
 * both is read from `servers`, with an error at `mcpServers` saying its servers are not loaded:
 * which list the person meant cannot be guessed, and merging them would hide a name given twice.
 */
function serversKeyOf(root: Node, where: Where, into: Diagnostic[]): ServersKey {
  const keys = keysOf(root);
  if (!keys.includes('mcpServers')) return 'servers';
  if (!keys.includes('servers')) return 'mcpServers';
  const alias = propertiesOf(root).findLast((p) => p.key === 'mcpServers')?.value;
  const names = alias?.type === 'object' ? keysOf(alias) : [];
  const shown = names.slice(0, 5).join(', ');
  const held =
    names.length === 0
      ? 'nothing'
      : names.length > 5
        ? `${shown} and ${names.length - 5} more`
        : shown;
  into.push(
    diagnostic(
      where,
      'error',
      'alias_conflict',
      ['mcpServers'],
      `the file has both "servers" and "mcpServers" (Claude Desktop's name for "servers"), so only "servers" is read and what "mcpServers" holds (${held}) is not loaded. Move those entries into "servers" and remove "mcpServers".`,
      'key',
    ),
  );
  return 'servers';
}

/** `locator` for a file whose servers are under `mcpServers`: a `servers` path is found there. */
function renamedServers(locator: Locator): Locator {
  const inFile = (path: readonly PathSegment[]) =>
    path[0] === 'servers' ? ['mcpServers', ...path.slice(1)] : path;
  return {
    offset: locator.offset,
    value: (path) => locator.value(inFile(path)),
    key: (path) => locator.key(inFile(path)),
  };
}

/**
 * The entries of the top-level object `field` (`servers` or its alias, `overrides`), the later of
 * a name given twice only (as JSON.parse keeps it); none when it is absent or not an object.
 */
function entriesOf(
  root: Node,
  field: ServersKey | 'overrides',
  example: string,
  where: Where,
  into: Diagnostic[],
): Property[] {
  const node = propertiesOf(root).findLast((p) => p.key === field)?.value;
  if (node === undefined) return [];
  if (node.type !== 'object') {
    into.push(
      diagnostic(
        where,
        'error',
        'invalid_type',
        [field],
        `"${field}" must be an object keyed by server name, e.g. ${example} (it holds ${kindOf(node)}).`,
      ),
    );
    return [];
  }
  const entries = propertiesOf(node);
  const last = new Map(entries.map((entry) => [entry.key, entry]));
  return entries.filter((entry) => last.get(entry.key) === entry);
}

/**
 * The entries but those whose name differs from an earlier entry's only in case (`Everything` after
 * `everything`): their tools would reach the model under two near-identical prefixes, and which one
 * a person means by either name is anyone's guess. The later one is left out, with an error at its
 * key naming both.
 */
function withoutCaseTwins(entries: Property[], where: Where, into: Diagnostic[]): Property[] {
  const first = new Map<string, Property>();
  return entries.filter((entry) => {
    const folded = entry.key.toLowerCase();
    const earlier = first.get(folded);
    if (earlier === undefined) {
      first.set(folded, entry);
      return true;
    }
    const { line } = where.locator.offset(earlier.keyNode.offset);
    into.push(
      diagnostic(
        where,
        'error',
        'name_case_conflict',
        ['servers', entry.key],
        `MCP server "${entry.key}" is not loaded: its name differs from "${earlier.key}" (line ${line}) only in case, which would give the model two near-identical tool prefixes. Rename or remove one of them.`,
        'key',
      ),
    );
    return false;
  });
}

function parseOverride(
  server: string,
  value: unknown,
  where: Where,
  into: Diagnostic[],
): McpServerOverride | undefined {
  const fields = readFields(server, value, where, into, 'overrides');
  if (fields === undefined) return undefined;
  const choice = readChoice(fields, {
    scope: 'overrides',
    name: server,
    file: where.file,
    locator: where.locator,
    raw: value as object,
    report: reporter(where, server, into, 'overrides'),
  });
  return {
    server,
    at: { file: where.file, ...where.locator.key(['overrides', server]) },
    ...choice,
    ...(fields.defer === undefined ? {} : { defer: fields.defer }),
    ...(fields.pin_tools === undefined ? {} : { pinTools: fields.pin_tools }),
    ...(fields.elicitation === undefined ? {} : { elicitation: fields.elicitation }),
    ...(fields.start === undefined ? {} : { start: fields.start }),
  };
}

export interface McpServerEntriesOptions {
  /** Names where the entries came from; it is the `file` of their diagnostics. */
  readonly origin: string;
  /** What a relative `cwd` is relative to. */
  readonly baseDir: string;
}

/**
 * Server entries that are objects already, not text (an embedding host's, given in code), read
 * exactly like the `servers` of a file. There is no text to point into, so every diagnostic is at
 * 1:1 of `origin`; its path still names the server and field.
 */
export function parseMcpServerEntries(
  entries: { readonly [name: string]: unknown },
  options: McpServerEntriesOptions,
): McpConfigLoad {
  const where: Where = {
    file: options.origin,
    locator: NO_TEXT,
    baseDir: options.baseDir,
    givenInCode: true,
  };
  const diagnostics: Diagnostic[] = [];
  const servers: McpServerConfig[] = [];
  for (const [name, value] of Object.entries(entries)) {
    const result = parseServer(name, value, where);
    for (const found of result.diagnostics) diagnostics.push(found);
    if (result.config !== undefined) servers.push(result.config);
  }
  return { servers, overrides: [], diagnostics };
}

const START = { line: 1, column: 1 };
const NO_TEXT: Locator = { value: () => START, key: () => START, offset: () => START };

export interface LoadMcpConfigOptions {
  /** Stops a long load: it rejects with the signal's reason, between two of its slices. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Reads mcp.json at `path`. A missing file is no servers and no diagnostics (nobody has written
 * one yet); a file that exists but cannot be read is an error diagnostic.
 */
export async function loadMcpConfig(
  path: string,
  options: LoadMcpConfigOptions = {},
): Promise<McpConfigLoad> {
  let text: string;
  try {
    text = (await readRegularFile(path, MAX_CONFIG_BYTES)).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return EMPTY;
    const why = isInfraError(error)
      ? error.message
      : `cannot read ${path}: ${
          code === 'EACCES' || code === 'EPERM'
            ? 'permission denied; check its owner and mode'
            : `${code ?? 'error'}`
        }.`;
    return {
      servers: [],
      overrides: [],
      diagnostics: [
        {
          severity: 'error',
          code: 'unreadable_file',
          file: path,
          path: '',
          line: 1,
          column: 1,
          message: `${why} No servers are loaded from it.`,
        },
      ],
    };
  }
  return parseInSlices(text, path, options.signal);
}

/** A file nothing is loaded from: its one error diagnostic. */
function unreadable(
  where: Where,
  code: 'too_deep' | 'syntax_error',
  path: readonly PathSegment[],
  message: string,
  at: Position,
): McpConfigLoad {
  const why = `${message} Nothing from this file is loaded until it is fixed.`;
  return {
    servers: [],
    overrides: [],
    diagnostics: [diagnostic(where, 'error', code, path, why, at)],
  };
}
