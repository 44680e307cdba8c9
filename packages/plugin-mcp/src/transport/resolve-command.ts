// Where a stdio server's command is, found the way the spawn will find it: a command with a path
// separator is taken as that path (relative to the server's cwd, since the child starts there);
// any other is looked for in the PATH of the environment the child gets, first executable file
// wins. On Windows cross-spawn also tries the current directory first and each PATHEXT extension.
// Also the environment itself, the "not found" error and the spawn itself (serverLaunch), so the
// preflight and the spawn agree.
//
// Node-only (file system): only the stdio path, the preflight and the connect attempt import
// this module.

import childProcess, { type ChildProcess, type SpawnOptions } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, extname, resolve } from 'node:path';
import { McpError } from '../errors/mcp-error.js';

export type CommandLookup =
  | { readonly kind: 'found'; readonly path: string }
  /** A file of that name exists but cannot be run (no execute permission, or a directory). */
  | { readonly kind: 'notExecutable'; readonly path: string }
  | { readonly kind: 'notFound' };

export interface CommandSite {
  readonly command: string;
  /** The server's cwd; process.cwd() when absent. */
  readonly cwd?: string | undefined;
  /** The child's whole environment (childEnvironment()). */
  readonly env: Readonly<Record<string, string>>;
}

const WINDOWS = process.platform === 'win32';
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** Starts a server's process. */
export type Launch = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

/**
 * Windows: cross-spawn, which finds a command's PATHEXT extension and runs a .cmd or .bat through
 * cmd.exe, as Node's spawn does not. Elsewhere cross-spawn hands the call to Node's spawn as it is,
 * and loading it (a dozen CommonJS modules) cost a process's first stdio start about 2 ms before
 * its first server could spawn: it is loaded on Windows only, as soon as this module is.
 */
const crossSpawn: Promise<Launch> | undefined = WINDOWS
  ? import('cross-spawn').then(({ default: spawn }) => spawn)
  : undefined;

/**
 * How a server is started: Node's spawn, looked up at each start (as cross-spawn does) so that a
 * host's instrumentation of child_process sees the servers start; on Windows cross-spawn, a promise
 * until it has loaded: the one turn a spawn may take before it runs, at a process's first start.
 */
export function serverLaunch(): Launch | Promise<Launch> {
  return crossSpawn ?? ((command, args, options) => childProcess.spawn(command, args, options));
}

// What a server inherits from this process, as the SDK's own stdio transport has it
// (getDefaultEnvironment), so a server sees the same environment under epoch as under other
// hosts. Not imported from the SDK: that module loads all of it, and a stdio server is spawned
// while the SDK is still loading (connection/start.ts).
const INHERITED = WINDOWS
  ? [
      'APPDATA',
      'COMSPEC',
      'HOMEDRIVE',
      'HOMEPATH',
      'LOCALAPPDATA',
      'PATH',
      'PATHEXT',
      'PROCESSOR_ARCHITECTURE',
      'PROGRAMDATA',
      'PROGRAMFILES',
      'PROGRAMFILES(X86)',
      'PROGRAMW6432',
      'SYSTEMDRIVE',
      'SYSTEMROOT',
      'TEMP',
      'USERNAME',
      'USERPROFILE',
      'WINDIR',
    ]
  : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** The environment a server process runs with: the inherited variables, then the config's `env`. */
export function childEnvironment(env: Readonly<Record<string, string>>): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = process.env[key];
    // A value starting with "()" is an exported shell function: code, not configuration.
    if (value !== undefined && !value.startsWith('()')) inherited[key] = value;
  }
  return { ...inherited, ...env };
}

export async function resolveCommand(site: CommandSite): Promise<CommandLookup> {
  const base = resolve(site.cwd ?? '.');
  const explicit = site.command.includes('/') || (WINDOWS && site.command.includes('\\'));
  const dirs = explicit
    ? [base]
    : [...(WINDOWS ? [base] : []), ...pathEntries(site.env).map((entry) => resolve(base, entry))];
  let notExecutable: string | undefined;
  for (const dir of dirs) {
    for (const candidate of withExtensions(resolve(dir, site.command), site.env)) {
      const kind = await fileKind(candidate);
      if (kind === 'executable') return { kind: 'found', path: candidate };
      if (kind === 'other') notExecutable ??= candidate;
    }
  }
  return notExecutable === undefined
    ? { kind: 'notFound' }
    : { kind: 'notExecutable', path: notExecutable };
}

/**
 * The error of a command that is nowhere to be found, from the preflight and the spawn alike. It
 * is for the person who wrote the config: what is missing and what to do about it.
 */
export function commandNotFound(server: string, command: string, cause?: unknown): McpError {
  const node = NODE_COMMANDS.has(command) ? ` ("${command}" comes with Node.js)` : '';
  return new McpError(
    'command_not_found',
    `MCP server "${server}": command "${command}" was not found on PATH. Install it${node}, or ` +
      'give its full path in "command".',
    { server, ...(cause === undefined ? {} : { cause }) },
  );
}

const NODE_COMMANDS = new Set(['node', 'npx', 'npm']);

/**
 * What a host developer needs to hear about a command that was not found, and a CLI user does
 * not: it goes to the host's logger (the CLI passes none), never into a status.
 */
export function commandNotFoundForHosts(server: string): string {
  return (
    `MCP server "${server}": its command was not found on this process's PATH. A host that ` +
    'embeds epoch on machines without Node must prepend the directory of the node it ships to ' +
    'process.env.PATH before servers start (see EMBEDDING.md, "User machines without Node").'
  );
}

function pathEntries(env: Readonly<Record<string, string>>): string[] {
  // Windows spells it `Path` as often as `PATH`; POSIX is case-sensitive.
  const key = WINDOWS ? Object.keys(env).find((name) => name.toUpperCase() === 'PATH') : 'PATH';
  const value = key === undefined ? undefined : env[key];
  if (value === undefined) return [];
  // An empty entry means the current directory, as it does to execvp.
  return value.split(delimiter).map((entry) => (entry === '' ? '.' : entry));
}

function withExtensions(path: string, env: Readonly<Record<string, string>>): string[] {
  if (!WINDOWS) return [path];
  const extensions = (env.PATHEXT ?? DEFAULT_PATHEXT).split(';').filter((ext) => ext !== '');
  return [...(extname(path) === '' ? [] : [path]), ...extensions.map((ext) => path + ext)];
}

/** `executable`: a file we may run; `other`: something is there but cannot be run; else absent. */
async function fileKind(path: string): Promise<'executable' | 'other' | 'absent'> {
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return 'other';
    if (!WINDOWS) await access(path, constants.X_OK);
    return 'executable';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'other' : 'absent';
  }
}
