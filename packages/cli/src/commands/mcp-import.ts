// `epoch mcp import`: the MCP servers of the other clients on this machine (or of one file) read,
// translated and written into the user's mcp.json in one text edit; each server's notes say what
// did not map, and what it runs is shown whole (its command or URL, and when it downloads code):
// importing approves what is written, so the output is where a person sees it, and `--dry-run`
// shows it (with the entries) before anything is written. A server that runs exactly what one of
// epoch's runs already, under any name, is recognised and not imported again, as is one that runs
// exactly what an earlier server of the same import runs (two clients, one server). Nothing is asked:
// like `add`, the command line says what to do (`--from`, `--file`, `--rename`). No env or header
// value is ever printed.
import { homedir } from 'node:os';
import { relative, resolve } from 'node:path';
import { terminalJson } from '@epoch-agent/infra';
import {
  CLIENT_NAMES,
  CLIENTS,
  type ClientFileRead,
  type ClientName,
  type FoundLaunch,
  type FoundServer,
  findClientServers,
  foundLaunches,
  type ImportedServer,
  type ImportPlaces,
  isClientName,
  isMcpConfigWriteError,
  type RuntimeServersImported,
  readFileAs,
  runsAgain,
  type ServerScope,
} from '@epoch-agent/runtime';
import { type Invocation, operands, stringOption, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { counted } from '../render/counted.js';
import { launchLines } from '../render/launch.js';
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
  let launches: ReadonlyMap<FoundServer, FoundLaunch>;
  try {
    // Nothing needs to run to write entries into a file. The project's file is the one that
    // applies in the project directory read.
    const options = { connectOnly: [], projectDir: places.project ?? null };
    [result, launches] = await withRuntime(io, invocation, options, async (runtime) => {
      const known = foundLaunches(runtime, found);
      const imported = await runtime.importServers(
        found.filter((server) => !runsAgain(known.get(server))),
        {
          rename: invocation.values.rename === true,
          dryRun: invocation.values['dry-run'] === true,
          scope,
        },
      );
      return [imported, known] as const;
    });
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
    const imports = importedBy(result);
    const servers = found.map((server) => shownJson(server, imports, launches));
    io.out(`${terminalJson({ file, created, written, files, servers }, 2)}\n`);
  } else {
    io.out(render(reads, { ...result, launches }, invocation.values['dry-run'] === true, places));
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

/** Each imported server by where it was read (serverKey): found again once each, not by a scan. */
type ImportedBy = ReadonlyMap<string, ImportedServer>;

function importedBy(result: RuntimeServersImported): ImportedBy {
  return new Map(result.servers.map((server) => [serverKey(server), server]));
}

/** Where a server was read: its client, file, scope and name there. */
function serverKey({ client, file, scope, original }: FoundServer): string {
  return JSON.stringify([client, file, scope, original]);
}

/**
 * What --json says of a server: never its entry, whose env and header values are secrets. One that
 * runs what a server of epoch's runs already has the outcome `present`, naming that server; one
 * that runs what an earlier server of this import runs, `duplicate`, naming where that one is.
 */
function shownJson(
  found: FoundServer,
  imports: ImportedBy,
  launches: ReadonlyMap<FoundServer, FoundLaunch>,
) {
  const { client: c, file, scope, original, notes } = found;
  const { launch, sameAs, sameAsFound: first } = launches.get(found) ?? {};
  const imported = imports.get(serverKey(found));
  const outcome =
    sameAs !== undefined
      ? { kind: 'present', sameAs }
      : first !== undefined
        ? {
            kind: 'duplicate',
            of: { client: first.client, file: first.file, original: first.original },
          }
        : imported?.outcome;
  const name = imported?.name ?? found.name;
  return { client: c, file, scope, original, name, outcome, notes, launch, entry: imported?.shown };
}

function render(
  reads: readonly ClientFileRead[],
  result: RuntimeServersImported & { readonly launches: ReadonlyMap<FoundServer, FoundLaunch> },
  dryRun: boolean,
  places: ImportPlaces,
): string {
  if (reads.length === 0) {
    return `No MCP client's file was found (home ${places.home}, project ${places.project ?? '-'}). Name one with --file PATH.\n`;
  }
  const imports = importedBy(result);
  let text = '';
  for (const read of reads) {
    const scope = read.scope === 'project' ? ', project' : '';
    text += `${CLIENTS[read.client].label}${scope}: ${read.path}\n`;
    if (!read.ok) {
      text += `  ${shownLine(read.problem)}\n`;
      continue;
    }
    if (read.servers.length === 0) text += '  no MCP servers\n';
    for (const found of read.servers) {
      const launch = result.launches.get(found);
      const server = imports.get(serverKey(found));
      if (launch?.sameAs !== undefined) text += presentLines(found, launch.sameAs);
      else if (launch?.sameAsFound !== undefined) text += duplicateLines(found, launch.sameAsFound);
      else if (server !== undefined) text += serverLines(server, launch, dryRun);
    }
  }
  const count = (kind: ImportedServer['outcome']['kind']) =>
    result.servers.filter((s) => s.outcome.kind === kind).length;
  const added = count('added') + count('renamed');
  const clashes = count('clash');
  const present = [...result.launches.values()].filter(({ sameAs }) => sameAs !== undefined);
  const twice = [...result.launches.values()].filter(
    ({ sameAsFound }) => sameAsFound !== undefined,
  );
  const verb = dryRun ? 'Would import' : 'Imported';
  text += `\n${verb} ${counted(added, 'server')} into ${result.file}${result.created && added > 0 ? ' (a new file)' : ''}.`;
  if (clashes > 0)
    text += ` ${clashes} skipped: their names are taken; --rename imports them under new names.`;
  if (present.length > 0)
    text += ` ${present.length} already there: epoch has a server that runs exactly the same.`;
  if (twice.length > 0)
    text += ` ${twice.length} not imported twice: another server of this import runs exactly the same (see above).`;
  if (count('refused') > 0) text += ` ${count('refused')} refused (see above).`;
  text += dryRun ? ' Dry run: nothing was written.\n' : '\n';
  return text;
}

/** A server that runs what one of epoch's runs already: not imported again under its name. */
function presentLines(found: FoundServer, sameAs: string): string {
  const was = found.original === found.name ? '' : ` (was "${shownLine(found.original)}")`;
  return `  ${found.name}: already there as "${sameAs}", which runs exactly the same; not imported again${was}\n`;
}

/** A server that runs what an earlier one of this import runs: that one is the one imported. */
function duplicateLines(found: FoundServer, first: FoundServer): string {
  const was = found.original === found.name ? '' : ` (was "${shownLine(found.original)}")`;
  const where = `${CLIENTS[first.client].label}'s "${shownLine(first.original)}" in ${first.file}`;
  return `  ${found.name}: not imported: it runs exactly what ${where} runs, which this import takes instead${was}\n`;
}

function serverLines(
  server: ImportedServer,
  launch: FoundLaunch | undefined,
  dryRun: boolean,
): string {
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
  // What it runs, before its notes: the thing to judge first, whatever else did not map.
  if (launch !== undefined && outcome.kind !== 'refused') {
    for (const fact of launchLines(launch.launch)) text += `    ${fact}\n`;
  }
  for (const note of server.notes) text += `    note: ${shownLine(note)}\n`;
  if (dryRun && (outcome.kind === 'added' || outcome.kind === 'renamed')) {
    text += `${indent(server.shown, '      ')}\n`;
  }
  return text;
}
