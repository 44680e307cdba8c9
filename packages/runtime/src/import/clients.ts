// Every client `epoch mcp import` reads, one reader each, and the two ways in: the files each client
// keeps on this machine, or one file given by path (its client told or recognized).
import { basename, dirname } from 'node:path';
import { MAX_CONFIG_BYTES, readRegularFile } from '@epoch-agent/infra';
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

/** The servers in each file of `clients` (default: all) that exists on this machine. */
export async function findClientServers(
  places: ImportPlaces,
  clients: readonly ClientName[] = CLIENT_NAMES,
): Promise<ClientFileRead[]> {
  const found: ClientFileRead[] = [];
  for (const client of clients) {
    for (const file of CLIENTS[client].files(places)) {
      const read = await readClientFile(file, places);
      if (read !== undefined) found.push(read);
    }
  }
  return found;
}

/**
 * The servers of the file at `path`, read as `client`'s (recognized from its name and content
 * when not given). Undefined when the file does not exist.
 */
export async function readFileAs(
  path: string,
  client: ClientName | undefined,
  places: ImportPlaces,
): Promise<ClientFileRead | undefined> {
  const text = await readText(path);
  if (text === undefined) return undefined;
  const as = client ?? recognize(path, text);
  // A file given by path is the project's when it sits in one of the project folders clients use.
  const scope =
    /^\.(vscode|cursor|gemini)$/.test(basename(dirname(path))) || basename(path) === '.mcp.json'
      ? 'project'
      : 'user';
  const file: ClientFile = { client: as, path, scope };
  return CLIENTS[as].read(text, file, {
    ...places,
    project: scope === 'project' ? dirname(dirname(path)) : places.project,
  });
}

async function readClientFile(
  file: ClientFile,
  places: ImportPlaces,
): Promise<ClientFileRead | undefined> {
  const text = await readText(file.path);
  return text === undefined ? undefined : CLIENTS[file.client].read(text, file, places);
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return (await readRegularFile(path, MAX_CONFIG_BYTES)).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
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
