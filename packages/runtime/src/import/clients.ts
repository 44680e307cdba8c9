// Every client `epoch mcp import` reads, one reader each, and the two ways in: the files each client
// keeps on this machine, or one file given by path (its client told or recognized).
import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { isInfraError, MAX_CONFIG_BYTES, readRegularFile } from '@epoch-agent/infra';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import {
  CLIENT_NAMES,
  type ClientFile,
  type ClientFileRead,
  type ClientName,
  type ClientReader,
  type ImportPlaces,
} from './found-server.js';
import { gemini } from './gemini.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';

/** A Record, so a client added to CLIENT_NAMES without a reader fails to compile. */
export const CLIENTS: Readonly<Record<ClientName, ClientReader>> = {
  'claude-desktop': claudeDesktop,
  'claude-code': claudeCode,
  cursor,
  vscode,
  windsurf,
  gemini,
  codex,
};

/**
 * The servers in each file of `clients` (default: all) that exists on this machine, each file (and
 * part of one) once: run in the home directory, a client's project file is its user file
 * (`~/.cursor/mcp.json` twice), and a link may point two places at one file — read twice, its
 * servers would be imported twice. The first place that names it (the user's) is the one kept.
 */
export async function findClientServers(
  places: ImportPlaces,
  clients: readonly ClientName[] = CLIENT_NAMES,
): Promise<ClientFileRead[]> {
  const found: ClientFileRead[] = [];
  const seen = new Set<string>();
  for (const client of clients) {
    for (const file of CLIENTS[client].files(places)) {
      // A file that is not there (or cannot be resolved) is left to the read to say so.
      const real = await realpath(file.path).catch(() => file.path);
      const key = JSON.stringify([real, client, file.part ?? '']);
      if (seen.has(key)) continue;
      seen.add(key);
      const read = await readClientFile(file, places);
      if (read !== undefined) found.push(read);
    }
  }
  return found;
}

/**
 * The servers of the file at `path`, read as `client`'s (recognized from its name and content
 * when not given). Undefined when the file does not exist; one that cannot be read is a problem.
 */
export async function readFileAs(
  path: string,
  client: ClientName | undefined,
  places: ImportPlaces,
): Promise<ClientFileRead | undefined> {
  const text = await readText({ client: client ?? 'claude-code', path, scope: 'user' });
  if (typeof text !== 'string') return text;
  const as = client ?? recognize(path, text);
  // A file given by path is the project's when it sits in one of the project folders clients use.
  const scope =
    /^\.(vscode|cursor|gemini)$/.test(basename(dirname(path))) || basename(path) === '.mcp.json'
      ? 'project'
      : 'user';
  const file: ClientFile = { client: as, path, scope };
  return readSafely(text, file, {
    ...places,
    project: scope === 'project' ? dirname(dirname(path)) : places.project,
  });
}

async function readClientFile(
  file: ClientFile,
  places: ImportPlaces,
): Promise<ClientFileRead | undefined> {
  const text = await readText(file);
  return typeof text === 'string' ? readSafely(text, file, places) : text;
}

/**
 * The file's text; undefined when it does not exist; a problem naming it when it cannot be read
 * (too large, not a regular file, no permission): that file is left out, the others are read.
 */
async function readText(file: ClientFile): Promise<string | ClientFileRead | undefined> {
  try {
    return (await readRegularFile(file.path, MAX_CONFIG_BYTES)).toString('utf8');
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    // ENOTDIR: a directory on the way is a file, so this one is not there either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { ...file, ok: false, problem: unreadable(file.path, error) };
  }
}

function unreadable(path: string, error: unknown): string {
  const nothing = 'nothing of it was imported; the other files were read.';
  if (isInfraError(error, 'too_large')) {
    return `${error.message} So ${nothing} To import its servers, copy them into a file of their own and import that with --file.`;
  }
  if (isInfraError(error, 'not_a_file')) return `${error.message} So ${nothing}`;
  const { code } = error as NodeJS.ErrnoException;
  if (code === 'EACCES' || code === 'EPERM') {
    return `${path} cannot be read (permission denied), so ${nothing} Check the file's owner and mode.`;
  }
  return `${path} cannot be read (${code ?? errorName(error)}), so ${nothing}`;
}

/**
 * The client's reader on the file's text: whatever it throws is that file's problem, never the
 * whole import's. Not the error's message: it may quote the file, which may hold a token.
 */
function readSafely(text: string, file: ClientFile, places: ImportPlaces): ClientFileRead {
  try {
    return CLIENTS[file.client].read(text, file, places);
  } catch (error) {
    return {
      ...file,
      ok: false,
      problem: `${file.path} could not be read as ${CLIENTS[file.client].label}'s file (${errorName(error)}), so nothing of it was imported; the other files were read. Import the servers you want from a file of their own with --file.`,
    };
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

// A file's own name says its client where only one client uses that name.
const BY_NAME: Readonly<Record<string, ClientName>> = {
  'claude_desktop_config.json': 'claude-desktop',
  '.claude.json': 'claude-code',
  '.mcp.json': 'claude-code',
  'mcp_config.json': 'windsurf',
  'settings.json': 'gemini',
  'config.toml': 'codex',
};

/** Which client wrote this file: by its name, then by its content. */
function recognize(path: string, text: string): ClientName {
  const name = basename(path);
  const known = BY_NAME[name];
  if (known !== undefined) return known;
  if (name.endsWith('.toml')) return 'codex';
  if (basename(dirname(path)) === '.cursor') return 'cursor';
  if (basename(dirname(path)) === '.vscode' || /"servers"\s*:/.test(text)) return 'vscode';
  if (/"serverUrl"\s*:/.test(text)) return 'windsurf';
  if (/"httpUrl"\s*:/.test(text)) return 'gemini';
  // Plain `mcpServers`: Claude Code's form is the widest of the ones that share it (type, url,
  // headers, ${VAR}).
  return 'claude-code';
}
