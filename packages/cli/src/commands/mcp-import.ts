// `epoch mcp import`: the MCP servers of the other clients on this machine (or of one file) read,
// translated and written into the user's mcp.json in one text edit; each server's notes say what
// did not map. Nothing is asked: like `add`, the command line says what to do (`--from`, `--file`,
// `--rename`), and `--dry-run` shows the entries first. No env or header value is ever printed.
import { homedir } from 'node:os';
import { relative, resolve } from 'node:path';
import { terminalJson } from '@epoch-agent/infra';
import {
  CLIENT_NAMES,
  CLIENTS,
  type ClientFileRead,
  type ClientName,
  findClientServers,
  type ImportedServer,
  type ImportPlaces,
  isClientName,
  isMcpConfigWriteError,
  type RuntimeServersImported,
  readFileAs,
  type ServerScope,
} from '@epoch-agent/runtime';
import { type Invocation, operands, stringOption, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { counted } from '../render/counted.js';
import { shownLine } from '../render/server-text.js';
import { withRuntime } from '../session.js';
import { indent } from './add-server.js';
import { scopeOf } from './scope.js';
import { failWrite } from './write-failure.js';

const WORDS = 'mcp import';

/** `epoch mcp import`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  operands(invocation);
  const from = client(stringOption(invocation, 'from'));
  const scope = scopeOf(invocation);
  const places = placesOf(invocation, io);
  const all = await read(invocation, from, places);
  // A file named with --file is read whatever its scope: the person chose it.
  const reads = stringOption(invocation, 'file') === undefined ? inScope(all, scope, places) : all;
  const found = reads.flatMap((r) => (r.ok ? r.servers : []));
  let result: RuntimeServersImported;
  try {
    // Nothing needs to run to write entries into a file. The project's file is the one that
    // applies in the project directory read.
    const options = { connectOnly: [], projectDir: places.project ?? null };
    result = await withRuntime(io, invocation, options, (runtime) =>
      runtime.importServers(found, {
        rename: invocation.values.rename === true,
        dryRun: invocation.values['dry-run'] === true,
        scope,
      }),
    );
  } catch (error) {
    if (!isMcpConfigWriteError(error)) throw error;
    return failWrite(io, invocation, error, WORDS);
  }
  const failed =
    reads.some((r) => !r.ok) || result.servers.some(({ outcome }) => outcome.kind === 'refused');
  if (invocation.json) {
    const { file, created, written } = result;
    const files = reads.map(({ client: c, path, scope, ...rest }) => ({
      client: c,
      path,
      scope,
      ...(rest.ok ? { servers: rest.servers.length } : { problem: rest.problem }),
    }));
    const servers = result.servers.map(shownJson);
    io.out(`${terminalJson({ file, created, written, files, servers }, 2)}\n`);
  } else {
    io.out(render(reads, result, invocation.values['dry-run'] === true, places));
  }
  return failed ? EXIT.failed : EXIT.ok;
}

/**
 * With scope `project`, only the files the project itself holds: a client's per-project settings
 * kept in the user's home (Claude Code's `~/.claude.json`) are that person's, not the project's.
 */
function inScope(
  reads: readonly ClientFileRead[],
  scope: ServerScope,
  places: ImportPlaces,
): readonly ClientFileRead[] {
  switch (scope) {
    case 'user':
      return reads;
    case 'project': {
      const { project } = places;
      if (project === undefined) return [];
      const inside = (path: string) => !relative(project, path).startsWith('..');
      return reads.filter((r) => r.scope === 'project' && inside(r.path));
    }
  }
}

function client(name: string | undefined): ClientName | undefined {
  if (name === undefined || isClientName(name)) return name;
  throw new UsageError(
    `--from ${JSON.stringify(name)} is not a client epoch reads; use one of ${CLIENT_NAMES.join(', ')}`,
  );
}

function placesOf(invocation: Invocation, io: CliIo): ImportPlaces {
  const home = (process.platform === 'win32' ? io.env.USERPROFILE : io.env.HOME) ?? homedir();
  return {
    home,
    project: resolve(stringOption(invocation, 'project') ?? process.cwd()),
    platform: process.platform,
    appData: io.env.APPDATA,
    xdgConfigHome: io.env.XDG_CONFIG_HOME,
  };
}

async function read(
  invocation: Invocation,
  from: ClientName | undefined,
  places: ImportPlaces,
): Promise<ClientFileRead[]> {
  const file = stringOption(invocation, 'file');
  if (file === undefined) return findClientServers(places, from === undefined ? undefined : [from]);
  const read = await readFileAs(resolve(file), from, places);
  if (read === undefined) throw new UsageError(`--file ${file}: there is no such file`);
  return [read];
}

/** What --json says of a server: never its entry, whose env and header values are secrets. */
function shownJson(server: ImportedServer) {
  const { client: c, file, scope, original, name, outcome, notes, shown } = server;
  return { client: c, file, scope, original, name, outcome, notes, entry: shown };
}

function render(
  reads: readonly ClientFileRead[],
  result: RuntimeServersImported,
  dryRun: boolean,
  places: ImportPlaces,
): string {
  if (reads.length === 0) {
    return `No MCP client's file was found (home ${places.home}, project ${places.project ?? '-'}). Name one with --file PATH.\n`;
  }
  let text = '';
  for (const read of reads) {
    const scope = read.scope === 'project' ? ', project' : '';
    text += `${CLIENTS[read.client].label}${scope}: ${read.path}\n`;
    if (!read.ok) {
      text += `  ${shownLine(read.problem)}\n`;
      continue;
    }
    const mine = result.servers.filter(
      (s) => s.file === read.path && s.client === read.client && s.scope === read.scope,
    );
    if (mine.length === 0) text += '  no MCP servers\n';
    for (const server of mine) text += serverLines(server, dryRun);
  }
  const count = (kind: ImportedServer['outcome']['kind']) =>
    result.servers.filter((s) => s.outcome.kind === kind).length;
  const added = count('added') + count('renamed');
  const clashes = count('clash');
  const verb = dryRun ? 'Would import' : 'Imported';
  text += `\n${verb} ${counted(added, 'server')} into ${result.file}${result.created && added > 0 ? ' (a new file)' : ''}.`;
  if (clashes > 0)
    text += ` ${clashes} skipped: their names are taken; --rename imports them under new names.`;
  if (count('refused') > 0) text += ` ${count('refused')} refused (see above).`;
  text += dryRun ? ' Dry run: nothing was written.\n' : '\n';
  return text;
}

function serverLines(server: ImportedServer, dryRun: boolean): string {
  const { outcome } = server;
  const was = server.original === server.name ? '' : ` (was "${shownLine(server.original)}")`;
  let line: string;
  switch (outcome.kind) {
    case 'added':
      line = `${server.name}: ${dryRun ? 'would be added' : 'added'}${was}`;
      break;
    case 'renamed':
      line = `${server.name}: ${dryRun ? 'would be added' : 'added'} under this name, since "${outcome.clashWith}" is taken (was "${shownLine(server.original)}")`;
      break;
    case 'clash':
      line = `${server.name}: skipped, "${outcome.clashWith}" already has that name${outcome.clashWith === server.name ? '' : ' (case aside)'}`;
      break;
    case 'refused':
      line = `${server.name}: not imported: ${shownLine(outcome.message)}`;
      break;
  }
  let text = `  ${line}\n`;
  for (const note of server.notes) text += `    note: ${shownLine(note)}\n`;
  if (dryRun && (outcome.kind === 'added' || outcome.kind === 'renamed')) {
    text += `${indent(server.shown, '      ')}\n`;
  }
  return text;
}
